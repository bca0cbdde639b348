import { Button, Group, Modal, type ModalProps, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';

/**
 * The state every call-flow create/edit form shares: the draft, checked against the contract's schema as the
 * server will check it; field errors shown once a save was tried (`invalid`, `issue`); the server's own field
 * errors, kept until the field changes (`serverFields`); the save itself (`write` gets the parsed body, `onSaved`
 * follows a success); and the props of the frame (`modal`) and of the name field (`nameInput`).
 */
export function useFlowForm<W extends object, B>({
  initial,
  schema,
  write,
  onSaved,
  onClose,
}: {
  initial: W | (() => W);
  /** The contract's schema of the body; the draft `W` may hold more (e.g. an IVR's empty rows) until it parses. */
  schema: z.ZodType<B>;
  write: (body: B) => Promise<unknown>;
  onSaved: () => void;
  /** Closes the modal (Cancel, Escape). */
  onClose: () => void;
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
  const invalid = (path: string) => issues.some((i) => i.path.join('.') === path);
  const set = (patch: Partial<W>) => {
    setForm((f) => ({ ...f, ...patch }));
    setServerFields((fields) => Object.fromEntries(Object.entries(fields).filter(([k]) => !(k in patch))));
  };
  const submit = () => {
    setTouched(true);
    if (parsed.success) save.mutate();
  };
  return {
    form,
    setForm,
    /** Changes some fields of the draft; what the server said about them no longer holds. */
    set,
    /** The schema refuses the field at exactly this dotted path ('name', 'entries.0.value'). */
    invalid,
    /** The schema's message for the first problem at or under this path (`issue('entries', 2)`). */
    issue: (...path: (string | number)[]) => issues.find((i) => path.every((p, n) => i.path[n] === p))?.message,
    serverFields,
    /** Props of the FlowNameInput bound to a text field of the draft (its name; an announcement's description). */
    nameInput: (field: keyof W & string) => ({
      value: String(form[field] ?? ''),
      onChange: (value: string) => set({ [field]: value } as Partial<W>),
      invalid: invalid(field),
      serverError: serverFields[field],
    }),
    /** Props of the FlowFormModal: closing, saving (shows the field errors from now on, saves a valid draft). */
    modal: { onClose, onSubmit: submit, saving: save.isPending },
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

/** The object's name, the first field of a call-flow form, focused when the modal opens. */
export function FlowNameInput({
  value,
  onChange,
  invalid,
  serverError,
}: {
  value: string;
  onChange: (name: string) => void;
  /** The schema refuses it (once a save was tried). */
  invalid: boolean;
  /** What the server said of it (a name taken). */
  serverError?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('flows.name')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={invalid ? t('flows.nameError') : serverError}
      data-autofocus
    />
  );
}
