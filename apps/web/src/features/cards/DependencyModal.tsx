import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { cardsApi } from './cardsApi.ts';

/**
 * Before deleting a source or a template: the cards that use it. Delete is offered only when none does
 * (spec §5); otherwise the modal says which cards to change first.
 */
export function DependencyModal({
  title,
  filter,
  onDelete,
  onClose,
}: {
  title: string;
  filter: { dbconn_id: number } | { template: string };
  onDelete: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const users = useQuery({
    queryKey: ['cards', 'cards', filter],
    queryFn: () => cardsApi.cards(filter),
    staleTime: 0,
  });
  const remove = useMutation({ mutationFn: onDelete, onSuccess: onClose });
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack gap="sm" data-testid="dependency-modal">
        {users.isPending ? (
          <Loader size="sm" aria-label={t('app.loading')} />
        ) : users.isError ? (
          <Alert color="red">{users.error.message}</Alert>
        ) : users.data.length === 0 ? (
          <Text size="sm">{t('cards.dependency.none')}</Text>
        ) : (
          <>
            <Text size="sm">{t('cards.dependency.used', { count: users.data.length })}</Text>
            <List size="sm" aria-label={t('cards.dependency.listLabel')}>
              {users.data.map((card) => (
                <List.Item key={card.id}>{card.name}</List.Item>
              ))}
            </List>
          </>
        )}
        {remove.isError && (
          <Alert color="red" title={t('cards.dependency.failed')}>
            {remove.error instanceof ApiError ? remove.error.body.detail : remove.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          {users.data?.length === 0 && (
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('cards.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
