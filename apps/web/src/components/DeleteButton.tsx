import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { confirmAction } from './confirm.tsx';
import { useWriteGuard } from './WriteControls.tsx';

/**
 * A red Delete button that asks first (title, message) and runs `onConfirm` only when confirmed; disabled for a
 * read-only account.
 */
export function DeleteButton({
  label,
  title,
  message,
  loading,
  onConfirm,
}: {
  label: string;
  title: string;
  message: string;
  loading?: boolean;
  onConfirm: () => void;
}) {
  const guard = useWriteGuard();
  return (
    <Button
      color="red"
      variant="light"
      leftSection={<IconTrash size={16} />}
      loading={loading}
      {...guard}
      onClick={async () => {
        if (await confirmAction({ title, message, confirmLabel: label, danger: true })) onConfirm();
      }}
    >
      {label}
    </Button>
  );
}
