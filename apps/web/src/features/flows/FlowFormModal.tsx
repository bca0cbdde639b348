import { Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';

/**
 * The state every call-flow create/edit form shares: the draft, checked against the contract's schema as the
 * server will check it; field errors shown once a save was tried (`invalid`, `issue`), the server's own field
 * errors kept until the field changes (`serverFields`), and the save itself (`write` gets the parsed body; `onSaved` on success).
 */
export function useFlowForm<W extends object, B>({
  initial,
  schema,
  write,
  onSaved,
}: {
  initial: W | (() => W);
  /** The contract's schema of the body; the draft `W` may hold more (e.g. an IVR's empty rows) until it parses. */
  schema: z.ZodType<B>;
  write: (body: B) => Promise<unknown>;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<W>(initial);
  const [touched, setTouched] = useState(false);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const parsed = schema.safeParse(form);
  const issues = touched && !parsed.success ? parsed.error.issues : [];
  const save = useMutation({
    mutationFn: () => write(schema.parse(form)),
    onSuccess: onSaved,
    onError: (e) => {
      // A number taken by an extension (queues) is told as the number field's error.
      if (e instanceof ApiError && e.body.code === 'extension_in_use') setServerFields({ extension: e.body.detail });
      else if (e instanceof ApiError && e.body.fields) setServerFields(e.body.fields);
      notifyError(t('flows.saveFailed'), e);
    },
  });
  return {
    form,
    setForm,
    /** Changes some fields of the draft; what the server said about them no longer holds. */
    set: (patch: Partial<W>) => {
      setForm((f) => ({ ...f, ...patch }));
      setServerFields((fields) => Object.fromEntries(Object.entries(fields).filter(([k]) => !(k in patch))));
    },
    /** The schema refuses the field at exactly this dotted path ('name', 'entries.0.value'). */
    invalid: (path: string) => issues.some((i) => i.path.join('.') === path),
    /** The schema's message for the first problem at or under this path (`issue('entries', 2)`). */
    issue: (...path: (string | number)[]) => issues.find((i) => path.every((p, n) => i.path[n] === p))?.message,
    serverFields,
    /** Shows the field errors from now on and saves when the draft is valid. */
    submit: () => {
      setTouched(true);
      if (parsed.success) save.mutate();
    },
    saving: save.isPending,
  };
}

/**
 * The frame of every call-flow modal form: the title, the fields, then Cancel and Save (Enter submits). Save is a
 * write control: disabled for a read-only account.
 */
export function FlowFormModal({
  title,
  size,
  onClose,
  onSubmit,
  saving,
  children,
}: {
  title: string;
  size?: ModalProps['size'];
  onClose: () => void;
  onSubmit: () => void;
  saving: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} size={size}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('flows.cancel')}
            </Button>
            <WriteButton type="submit" loading={saving}>
              {t('flows.save')}
            </WriteButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
