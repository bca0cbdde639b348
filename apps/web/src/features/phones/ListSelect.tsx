import { Select, type SelectProps } from '@mantine/core';
import { useState } from 'react';

/** Above this many options a list becomes searchable and shows its options a chunk at a time (spec §9). */
export const SEARCHABLE_FROM = 10;
const FIRST_CHUNK = 12;
const CHUNK = 10;

/**
 * A list field of the phone settings. Long lists (time zones, files) are searchable and render a first
 * chunk of options, adding more as the dropdown is scrolled to its end, so opening them stays quick.
 */
export function ListSelect(props: Omit<SelectProps, 'data' | 'searchable' | 'limit'> & { data: SelectProps['data'] }) {
  const [limit, setLimit] = useState(FIRST_CHUNK);
  const long = (props.data?.length ?? 0) > SEARCHABLE_FROM;
  if (!long) return <Select allowDeselect={false} {...props} />;
  return (
    <Select
      allowDeselect={false}
      {...props}
      searchable
      limit={limit}
      onDropdownClose={() => {
        setLimit(FIRST_CHUNK);
        props.onDropdownClose?.();
      }}
      scrollAreaProps={{ onBottomReached: () => setLimit((current) => current + CHUNK) }}
    />
  );
}
