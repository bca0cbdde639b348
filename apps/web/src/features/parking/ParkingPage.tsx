import {
  PARKING_DEFAULTS,
  PARKING_MAX_SLOTS,
  PARKING_MAX_TIMEOUT,
  PARKING_MIN_TIMEOUT,
  type ParkingLot,
  type ParkingLotWrite,
  parkingDestination,
  parkingLotWriteSchema,
} from '@centralino/contract';
import { Checkbox, Group, NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DestinationSelect } from '../flows/DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from '../flows/FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from '../flows/FlowListPage.tsx';
import { ParkedCallsCard } from './ParkedCallsCard.tsx';
import { parkingApi } from './parkingApi.ts';

/** The draft: "back to who parked it" is a box, the destination kept aside while it is ticked. */
interface Draft {
  extension: string;
  name: string;
  first_slot: string;
  slots: number;
  timeout: number;
  back_to_parker: boolean;
  timeout_dest: string;
  music_class: string;
}

const bodyOf = (d: Draft): ParkingLotWrite => ({
  extension: d.extension,
  name: d.name,
  first_slot: d.first_slot,
  slots: d.slots,
  timeout: d.timeout,
  timeout_dest: d.back_to_parker ? null : d.timeout_dest,
  music_class: d.music_class,
});

const whole = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10) || 0);

function ParkingModal({ lot, onClose, onSaved }: { lot: ParkingLot | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { form, set, issue, serverFields, nameInput, modal } = useFlowForm<Draft, ParkingLotWrite>({
    initial: {
      extension: lot?.extension ?? PARKING_DEFAULTS.extension,
      name: lot?.name ?? '',
      first_slot: lot?.first_slot ?? PARKING_DEFAULTS.first_slot,
      slots: lot?.slots ?? PARKING_DEFAULTS.slots,
      timeout: lot?.timeout ?? PARKING_DEFAULTS.timeout,
      back_to_parker: lot ? lot.timeout_dest === null : true,
      timeout_dest: lot?.timeout_dest ?? '',
      music_class: lot?.music_class ?? 'default',
    },
    // What is checked is the body the draft stands for, as the server checks it.
    schema: z.custom<Draft>().transform(bodyOf).pipe(parkingLotWriteSchema) as unknown as z.ZodType<ParkingLotWrite>,
    write: (body) => (lot ? parkingApi.update(lot.id, body) : parkingApi.create(body)),
    onSaved,
    onClose,
  });
  return (
    <FlowFormModal title={lot ? t('parking.editTitle') : t('parking.create')} size="lg" {...modal}>
      <Group grow align="flex-start">
        <TextInput
          label={t('parking.extension')}
          description={t('parking.extensionHint')}
          value={form.extension}
          inputMode="numeric"
          onChange={(e) => set({ extension: e.currentTarget.value })}
          error={issue('extension') ? t('parking.extensionError') : serverFields.extension}
          data-autofocus
        />
        <FlowNameInput {...nameInput('name')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label={t('parking.firstSlot')}
          value={form.first_slot}
          inputMode="numeric"
          onChange={(e) => set({ first_slot: e.currentTarget.value })}
          error={
            issue('first_slot')
              ? form.first_slot === form.extension || issue('first_slot')?.startsWith('The lot')
                ? t('parking.lotInSlots')
                : t('parking.firstSlotError')
              : serverFields.first_slot
          }
        />
        <NumberInput
          label={t('parking.slots')}
          value={form.slots}
          min={1}
          max={PARKING_MAX_SLOTS}
          onChange={(v) => set({ slots: whole(v) })}
          error={issue('slots') ? t('parking.slotsError', { max: PARKING_MAX_SLOTS }) : serverFields.slots}
        />
      </Group>
      <NumberInput
        label={t('parking.timeout')}
        description={t('parking.timeoutHint')}
        value={form.timeout}
        min={PARKING_MIN_TIMEOUT}
        max={PARKING_MAX_TIMEOUT}
        onChange={(v) => set({ timeout: whole(v) })}
        error={
          issue('timeout')
            ? t('parking.timeoutError', { min: PARKING_MIN_TIMEOUT, max: PARKING_MAX_TIMEOUT })
            : serverFields.timeout
        }
      />
      <Checkbox
        label={t('parking.backToParker')}
        description={t('parking.backToParkerHint')}
        checked={form.back_to_parker}
        onChange={(e) => set({ back_to_parker: e.currentTarget.checked })}
      />
      {form.back_to_parker ? null : (
        <DestinationSelect
          label={t('parking.timeoutDest')}
          value={form.timeout_dest}
          onChange={(v) => set({ timeout_dest: v })}
          exclude={lot ? parkingDestination(lot.extension) : undefined}
          error={issue('timeout_dest') ? t('flows.chooseDestination') : serverFields.timeout_dest}
          testId="parking-timeout-dest"
        />
      )}
    </FlowFormModal>
  );
}

/** Call flows › Parking: lots callers are parked in, by transfer or by dialling, and the calls parked now. */
export function ParkingPage() {
  const { t } = useTranslation();
  const destinationLabel = useDestinationLabel();
  return (
    <>
      <FlowListPage<ParkingLot>
        title={t('parking.title')}
        intro={t('parking.intro')}
        createLabel={t('parking.create')}
        empty={t('parking.empty')}
        queryKey="parking"
        load={parkingApi.list}
        keyOf={(l) => l.id}
        nameOf={(l) => `${l.extension} ${l.name}`}
        columns={[
          { header: t('parking.extension'), cell: (l) => l.extension, strong: true },
          { header: t('flows.name'), cell: (l) => l.name },
          { header: t('parking.slotsShort'), cell: (l) => `${l.first_slot}–${l.last_slot}` },
          { header: t('parking.timeoutShort'), cell: (l) => t('parking.seconds', { count: l.timeout }) },
          {
            header: t('parking.timeoutDestShort'),
            cell: (l) => (l.timeout_dest === null ? t('parking.backToParkerShort') : destinationLabel(l.timeout_dest)),
          },
        ]}
        remove={(l) => parkingApi.remove(l.id)}
        testId="parking"
        rowTestId={(l) => `parking-${l.extension}`}
        modal={(l, close, saved) => <ParkingModal lot={l} onClose={close} onSaved={saved} />}
      />
      <ParkedCallsCard />
    </>
  );
}
