import { Combobox, Loader, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, useEditor } from './fields.tsx';
import { textValue } from './modelState.ts';
import { modelsApi } from './modelsApi.ts';

const MORE = '\u0000more';

/**
 * Value of a BLF key: the extension of the user whose line the key watches. Users are searched on the
 * server by username, name or extension, a few at a time; choosing one also labels the key with the name.
 */
export function UserSearchField({
  variable,
  labelVariable,
  label,
  ariaLabel,
}: {
  variable: string;
  labelVariable: string;
  label: string;
  ariaLabel?: string;
}) {
  const { t } = useTranslation();
  const { layers, edits, set } = useEditor();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search ?? '', 250);
  const open = combobox.dropdownOpened;

  const users = useInfiniteQuery({
    queryKey: ['blf-users', debounced],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => modelsApi.searchUsers(debounced, pageParam),
    getNextPageParam: (last) => (last.next < last.total ? last.next : undefined),
    enabled: open,
  });
  const found = users.data?.pages.flatMap((page) => page.users) ?? [];

  const choose = (choice: string) => {
    if (choice === MORE) {
      void users.fetchNextPage();
      return;
    }
    const user = found.find((u) => String(u.id) === choice);
    if (user) {
      set(variable, user.default_extension, 'text');
      set(labelVariable, user.displayname, 'text');
    }
    setSearch(null);
    combobox.closeDropdown();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={choose}>
      <Combobox.Target>
        <TextInput
          label={<FieldLabel label={label} variable={variable} />}
          aria-label={ariaLabel ?? label}
          placeholder={t('models.searchUser')}
          value={search ?? textValue(variable, layers, edits)}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => {
            setSearch('');
            combobox.openDropdown();
          }}
          onBlur={() => {
            setSearch(null);
            combobox.closeDropdown();
          }}
          rightSection={users.isFetching ? <Loader size={14} /> : null}
          data-variable={variable}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={240} style={{ overflowY: 'auto' }}>
          {found.map((user) => (
            <Combobox.Option value={String(user.id)} key={user.id}>
              {`${user.displayname} - ${user.default_extension}`}
            </Combobox.Option>
          ))}
          {users.isSuccess && found.length === 0 && <Combobox.Empty>{t('models.noUsers')}</Combobox.Empty>}
          {users.hasNextPage && (
            <Combobox.Option value={MORE} c="blue">
              {t('list.showMore')}
            </Combobox.Option>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
