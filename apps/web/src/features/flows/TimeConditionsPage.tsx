import {
  TIME_CONDITION_OVERRIDES,
  type TimeCondition,
  type TimeConditionWrite,
  timeConditionDestination,
  timeConditionWriteSchema,
} from '@centralino/contract';
import { Select } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteFieldset } from '../../components/WriteControls.tsx';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const EMPTY: TimeConditionWrite = { name: '', time_group_id: 0, true_dest: '', false_dest: '' };

function TimeConditionModal({
  condition,
  onClose,
  onSaved,
}: {
  condition: TimeCondition | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const groups = useQuery({ queryKey: ['timegroups'], queryFn: flowsApi.timeGroups });
  const { form, set, invalid, serverFields, modal, nameInput } = useFlowForm({
    initial: condition ?? EMPTY,
    schema: timeConditionWriteSchema,
    write: (body) =>
      condition ? flowsApi.updateTimeCondition(condition.id, body) : flowsApi.createTimeCondition(body),
    onSaved,
    onClose,
  });
  const exclude = condition ? timeConditionDestination(condition.id) : undefined;
  return (
    <FlowFormModal
      title={condition ? t('flows.timeConditions.editTitle') : t('flows.timeConditions.create')}
      {...modal}
    >
      <FlowNameInput {...nameInput('name')} />
      <Select
        label={t('flows.timeConditions.group')}
        data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        value={form.time_group_id ? String(form.time_group_id) : null}
        onChange={(v) => set({ time_group_id: v ? Number(v) : 0 })}
        placeholder={t('flows.timeConditions.chooseGroup')}
        error={invalid('time_group_id') ? t('flows.timeConditions.chooseGroup') : serverFields.time_group_id}
        searchable
        nothingFoundMessage={t('flows.noMatch')}
        comboboxProps={{ withinPortal: true }}
      />
      <DestinationSelect
        label={t('flows.timeConditions.inside')}
        value={form.true_dest}
        onChange={(v) => set({ true_dest: v })}
        exclude={exclude}
        error={invalid('true_dest') ? t('flows.chooseDestination') : serverFields.true_dest}
        testId="tc-inside"
      />
      <DestinationSelect
        label={t('flows.timeConditions.outside')}
        value={form.false_dest}
        onChange={(v) => set({ false_dest: v })}
        exclude={exclude}
        error={invalid('false_dest') ? t('flows.chooseDestination') : serverFields.false_dest}
        testId="tc-outside"
      />
    </FlowFormModal>
  );
}

/** The override as Asterisk holds it, changed at once (AstDB; no apply). */
function OverrideSelect({ condition }: { condition: TimeCondition }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (override: 'auto' | 'inside' | 'outside') => flowsApi.setTimeConditionOverride(condition.id, override),
    onSuccess: () => {
      notifySuccess(t('flows.timeConditions.overrideSet'));
      void queryClient.invalidateQueries({ queryKey: ['timeconditions'] });
    },
    onError: (e) => notifyError(t('flows.saveFailed'), e),
  });
  const options = [...TIME_CONDITION_OVERRIDES, ...(condition.override === 'unknown' ? ['unknown' as const] : [])];
  return (
    <WriteFieldset>
      <Select
        aria-label={t('flows.timeConditions.setOverride', { name: condition.name })}
        data={options.map((o) => ({
          value: o,
          label: t(`flows.timeConditions.overrides.${o}`),
          disabled: o === 'unknown',
        }))}
        value={condition.override}
        onChange={(v) => v && v !== 'unknown' && change.mutate(v as 'auto' | 'inside' | 'outside')}
        allowDeselect={false}
        size="xs"
        w={200}
        comboboxProps={{ withinPortal: true }}
      />
    </WriteFieldset>
  );
}

/** Call flows › Time conditions: one destination inside a time group, another outside; overridable. */
export function TimeConditionsPage() {
  const { t } = useTranslation();
  const destinationLabel = useDestinationLabel();
  const groups = useQuery({ queryKey: ['timegroups'], queryFn: flowsApi.timeGroups });
  const groupName = (id: number) => groups.data?.find((g) => g.id === id)?.name ?? String(id);
  return (
    <FlowListPage<TimeCondition>
      title={t('flows.timeConditions.title')}
      intro={t('flows.timeConditions.intro')}
      createLabel={t('flows.timeConditions.create')}
      empty={t('flows.timeConditions.empty')}
      queryKey="timeconditions"
      load={flowsApi.timeConditions}
      keyOf={(c) => c.id}
      nameOf={(c) => c.name}
      columns={[
        { header: t('flows.name'), cell: (c) => c.name, strong: true },
        { header: t('flows.timeConditions.group'), cell: (c) => groupName(c.time_group_id) },
        { header: t('flows.timeConditions.inside'), cell: (c) => destinationLabel(c.true_dest) },
        { header: t('flows.timeConditions.outside'), cell: (c) => destinationLabel(c.false_dest) },
        { header: t('flows.timeConditions.featureCode'), cell: (c) => c.feature_code },
        { header: t('flows.timeConditions.override'), cell: (c) => <OverrideSelect condition={c} /> },
      ]}
      remove={(c) => flowsApi.removeTimeCondition(c.id)}
      invalidates={['timegroups']}
      testId="timeconditions"
      rowTestId={(c) => `timecondition-${c.name}`}
      modal={(c, close, saved) => <TimeConditionModal condition={c} onClose={close} onSaved={saved} />}
    />
  );
}
