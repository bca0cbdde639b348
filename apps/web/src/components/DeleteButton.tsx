import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useCanWrite } from '../app/auth.tsx';
import { confirmAction } from './confirm.tsx';

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
  const canWrite = useCanWrite();
  return (
    <Button
      color="red"
      variant="light"
      leftSection={<IconTrash size={16} />}
      loading={loading}
      disabled={!canWrite}
      onClick={async () => {
        if (await confirmAction({ title, message, confirmLabel: label, danger: true })) onConfirm();
      }}
    >
      {label}
    </Button>
  );
}
