import { type TimeGroup, type TimeRange, timeGroupWriteSchema } from '@centralino/contract';
import { ActionIcon, Button, Fieldset, Group, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const ANY: TimeRange = { hours: '*', weekdays: '*', mdays: '*', months: '*' };
const FIELDS = ['hours', 'weekdays', 'mdays', 'months'] as const;

/** A range as one line: '08:30-12:30 mon-fri', '25 dec'; '*' parts left out. */
export function rangeText(r: TimeRange): string {
  const parts = [r.hours, r.weekdays, r.mdays, r.months].filter((p) => p !== '*');
  return parts.length === 0 ? '*' : parts.join(' ');
}

function TimeGroupModal({
  group,
  onClose,
  onSaved,
}: {
  group: TimeGroup | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { form, setForm, invalid, serverFields, modal, nameInput } = useFlowForm({
    initial: group ? { name: group.name, ranges: group.ranges } : { name: '', ranges: [{ ...ANY }] },
    schema: timeGroupWriteSchema,
    write: (body) => (group ? flowsApi.updateTimeGroup(group.id, body) : flowsApi.createTimeGroup(body)),
    onSaved,
    onClose,
  });
  const ranges = form.ranges as TimeRange[];
  const setRange = (index: number, patch: Partial<TimeRange>) =>
    setForm((f) => ({ ...f, ranges: (f.ranges as TimeRange[]).map((r, i) => (i === index ? { ...r, ...patch } : r)) }));
  return (
    <FlowFormModal title={group ? t('flows.timeGroups.editTitle') : t('flows.timeGroups.create')} size="xl" {...modal}>
      <FlowNameInput {...nameInput('name')} />
      <Text fw={500} size="sm">
        {t('flows.timeGroups.ranges')}
      </Text>
      {ranges.map((range, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity of their own but their place
        <Fieldset key={index} legend={t('flows.timeGroups.range', { n: index + 1 })} data-testid={`range-${index}`}>
          <Group align="flex-start" wrap="nowrap">
            {FIELDS.map((field) => (
              <TextInput
                key={field}
                label={t(`flows.timeGroups.${field}`)}
                description={t(`flows.timeGroups.${field}Hint`)}
                value={range[field]}
                onChange={(e) => setRange(index, { [field]: e.currentTarget.value })}
                error={
                  invalid(`ranges.${index}.${field}`) || serverFields[`ranges.${index}.${field}`]
                    ? t('flows.timeGroups.rangeError')
                    : undefined
                }
              />
            ))}
            <ActionIcon
              variant="subtle"
              color="red"
              mt={48}
              aria-label={t('flows.timeGroups.removeRange', { n: index + 1 })}
              disabled={ranges.length === 1}
              onClick={() =>
                setForm((f) => ({ ...f, ranges: (f.ranges as TimeRange[]).filter((_, i) => i !== index) }))
              }
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Fieldset>
      ))}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={() => setForm((f) => ({ ...f, ranges: [...(f.ranges as TimeRange[]), { ...ANY }] }))}
        >
          {t('flows.timeGroups.addRange')}
        </Button>
      </Group>
    </FlowFormModal>
  );
}

/** Call flows › Time groups: ranges of hours, weekdays, days and months that time conditions test. */
export function TimeGroupsPage() {
  const { t } = useTranslation();
  return (
    <FlowListPage<TimeGroup>
      title={t('flows.timeGroups.title')}
      intro={t('flows.timeGroups.intro')}
      createLabel={t('flows.timeGroups.create')}
      empty={t('flows.timeGroups.empty')}
      queryKey="timegroups"
      load={flowsApi.timeGroups}
      keyOf={(g) => g.id}
      nameOf={(g) => g.name}
      columns={[
        { header: t('flows.name'), cell: (g) => g.name, strong: true },
        { header: t('flows.timeGroups.ranges'), cell: (g) => g.ranges.map(rangeText).join('; ') },
        {
          header: t('flows.timeGroups.usedBy'),
          cell: (g) => (g.used_by.length ? g.used_by.join(', ') : t('flows.timeGroups.none')),
        },
      ]}
      remove={(g) => flowsApi.removeTimeGroup(g.id)}
      testId="timegroups"
      rowTestId={(g) => `timegroup-${g.name}`}
      modal={(g, close, saved) => <TimeGroupModal group={g} onClose={close} onSaved={saved} />}
    />
  );
}
