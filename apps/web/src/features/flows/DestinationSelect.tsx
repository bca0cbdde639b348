import type { Destinations } from '@centralino/contract';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { flowsApi } from './flowsApi.ts';

/** Category names of GET /api/destinations → i18n keys of flows.categories. */
const CATEGORY_KEYS: Record<string, string> = {
  'Terminate Call': 'terminate',
  Extensions: 'extensions',
  Voicemail: 'voicemail',
  Groups: 'groups',
  Announcements: 'announcements',
  IVR: 'ivr',
  'Day/Night': 'daynight',
  Queues: 'queues',
  'Time conditions': 'timeconditions',
  'Caller query routing': 'cqr',
  Conferences: 'conferences',
  Parking: 'parking',
  'Ring groups': 'ringgroups',
};

/** Picker data: the catalogue's entries grouped by translated category. */
export function destinationOptions(destinations: Destinations, t: TFunction) {
  return Object.entries(destinations).map(([category, entries]) => ({
    group: t(`flows.categories.${CATEGORY_KEYS[category] ?? 'other'}`, { defaultValue: category }),
    items: Object.values(entries).map((d) => ({
      value: d.destination,
      label:
        category === 'Terminate Call'
          ? t(`flows.terminate.${d.description.toLowerCase()}`, { defaultValue: d.description })
          : d.description,
    })),
  }));
}

/** Every destination the PBX can send a call to (`GET /api/destinations`), searchable, grouped by kind. */
export function DestinationSelect({
  label,
  value,
  onChange,
  error,
  exclude,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** The object being edited: not offered as its own destination where that makes no sense. */
  exclude?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  const data = destinationOptions(destinations.data ?? {}, t).map((g) => ({
    ...g,
    items: g.items.filter((i) => i.value !== exclude),
  }));
  return (
    <Select
      label={label}
      data={data.filter((g) => g.items.length > 0)}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      nothingFoundMessage={t('flows.noMatch')}
      placeholder={t('flows.chooseDestination')}
      error={error}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
