import { decodeTrunkName } from '@centralino/contract';
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { IconGripVertical, IconX } from '@tabler/icons-react';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface TrunkRef {
  trunkid: number;
  name: string;
}

function SortableTrunk({ trunk, index, onRemove }: { trunk: TrunkRef; index: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: trunk.trunkid });
  const label = decodeTrunkName(trunk.name);
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      radius="sm"
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      data-testid={`route-trunk-${trunk.name}`}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={t('outbound.move', { name: label })}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={16} />
          </ActionIcon>
          <Text size="sm" c="dimmed" w={20}>
            {index + 1}.
          </Text>
          <Text size="sm">{label}</Text>
        </Group>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('outbound.removeTrunk', { name: label })}
          onClick={onRemove}
        >
          <IconX size={16} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/**
 * Trunks of a route in failover order: drag (or pick up with Space and move with the arrow keys) to
 * reorder, remove, and add the trunks not in the route yet.
 */
export function TrunkOrder({
  trunks,
  available,
  onChange,
}: {
  trunks: TrunkRef[];
  available: TrunkRef[];
  onChange: (trunks: TrunkRef[]) => void;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = trunks.findIndex((tr) => tr.trunkid === active.id);
    const to = trunks.findIndex((tr) => tr.trunkid === over.id);
    onChange(arrayMove(trunks, from, to));
  };
  // dnd-kit's own announcements are English and name the item by its id ("Draggable item 3 was picked up"):
  // these name the trunk and its place, in the interface language.
  const moved = useRef(false);
  const accessibility = useMemo(() => {
    const named = (id: UniqueIdentifier) => {
      const index = trunks.findIndex((tr) => tr.trunkid === id);
      const trunk = trunks[index];
      return { name: trunk ? decodeTrunkName(trunk.name) : String(id), total: trunks.length };
    };
    const place = (id: UniqueIdentifier | undefined) => trunks.findIndex((tr) => tr.trunkid === id) + 1;
    const announcements: Announcements = {
      onDragStart: ({ active }) => {
        moved.current = false;
        return t('outbound.dnd.pickedUp', { ...named(active.id), position: place(active.id) });
      },
      // Picked up with the keyboard, a trunk is first "over" itself: the pick-up already said where it is.
      onDragOver: ({ active, over }) => {
        if (over?.id === active.id && !moved.current) return undefined;
        moved.current = true;
        return over
          ? t('outbound.dnd.movedTo', { ...named(active.id), position: place(over.id) })
          : t('outbound.dnd.outside', named(active.id));
      },
      onDragEnd: ({ active, over }) =>
        over
          ? t('outbound.dnd.dropped', { ...named(active.id), position: place(over.id) })
          : t('outbound.dnd.droppedOutside', named(active.id)),
      onDragCancel: ({ active }) => t('outbound.dnd.cancelled', { ...named(active.id), position: place(active.id) }),
    };
    return { announcements, screenReaderInstructions: { draggable: t('outbound.dnd.instructions') } };
  }, [trunks, t]);
  const addable = available.filter((a) => !trunks.some((tr) => tr.trunkid === a.trunkid));
  return (
    <Stack gap="xs">
      {trunks.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('outbound.noTrunksInRoute')}
        </Text>
      )}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={accessibility}
      >
        <SortableContext items={trunks.map((tr) => tr.trunkid)} strategy={verticalListSortingStrategy}>
          {trunks.map((trunk, index) => (
            <SortableTrunk
              key={trunk.trunkid}
              trunk={trunk}
              index={index}
              onRemove={() => onChange(trunks.filter((tr) => tr.trunkid !== trunk.trunkid))}
            />
          ))}
        </SortableContext>
      </DndContext>
      {addable.length > 0 && (
        <Select
          aria-label={t('outbound.addTrunk')}
          placeholder={t('outbound.addTrunk')}
          data={addable.map((a) => ({ value: String(a.trunkid), label: decodeTrunkName(a.name) }))}
          value={null}
          onChange={(value) => {
            const picked = addable.find((a) => String(a.trunkid) === value);
            if (picked) onChange([...trunks, picked]);
          }}
        />
      )}
    </Stack>
  );
}
