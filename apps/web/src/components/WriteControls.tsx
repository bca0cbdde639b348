import { ActionIcon, type ActionIconProps, Button, type ButtonProps, Fieldset, VisuallyHidden } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanWrite } from '../app/auth.tsx';

/*
 * The one place a screen's write controls learn the read-only role (issue 28: such an account sees every screen,
 * the server refuses its writes). A control that changes something is a WriteButton or WriteActionIcon, or stands
 * in a WriteFieldset (a form, a table's editable cells): for a read-only account it is disabled and described by
 * the frame's "Read-only account" hint, so neither a click nor a screen reader meets a 403 first. An
 * administrator gets the plain control, unchanged.
 */

/** Id of the visually hidden "Read-only account" text the disabled controls point to (aria-describedby). */
export const READ_ONLY_HINT_ID = 'read-only-hint';

/** Id of the hint a control that would show a credential points to, for a read-only account. */
export const CREDENTIAL_HINT_ID = 'credential-hint';

/** The hints themselves, once in the signed-in frame (only for a read-only account). */
export function ReadOnlyHint() {
  const { t } = useTranslation();
  return (
    <>
      <VisuallyHidden id={READ_ONLY_HINT_ID}>{t('readOnly.control')}</VisuallyHidden>
      <VisuallyHidden id={CREDENTIAL_HINT_ID}>{t('readOnly.credential')}</VisuallyHidden>
    </>
  );
}

/**
 * What a control that shows or downloads a credential (a password's Show, a backup) gets for a read-only account:
 * disabled, and why (the server answers such an account 403). Nothing for an administrator.
 */
export function useCredentialGuard(): { disabled?: true; 'aria-describedby'?: string; title?: string } {
  const { t } = useTranslation();
  return useCanWrite()
    ? {}
    : { disabled: true, 'aria-describedby': CREDENTIAL_HINT_ID, title: t('readOnly.credential') };
}

/** A Button that shows or downloads a credential: disabled, with its reason, for a read-only account. */
export function CredentialButton({ disabled, 'aria-describedby': describedBy, title, ...props }: WriteButtonProps) {
  const guard = useCredentialGuard();
  return (
    <Button
      {...props}
      disabled={disabled || guard.disabled}
      aria-describedby={guard['aria-describedby'] ?? describedBy}
      title={guard.title ?? title}
    />
  );
}

/** What a write control gets for a read-only account: disabled, and why. Nothing for an administrator. */
export function useWriteGuard(): { disabled?: true; 'aria-describedby'?: string } {
  return useCanWrite() ? {} : { disabled: true, 'aria-describedby': READ_ONLY_HINT_ID };
}

type WriteButtonProps = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps>;

/** A Button that changes something: disabled, with the hint, for a read-only account. */
export function WriteButton({ disabled, 'aria-describedby': describedBy, ...props }: WriteButtonProps) {
  const guard = useWriteGuard();
  return (
    <Button
      {...props}
      disabled={disabled || guard.disabled}
      aria-describedby={guard['aria-describedby'] ?? describedBy}
    />
  );
}

type WriteActionIconProps = ActionIconProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ActionIconProps>;

/** An ActionIcon that changes something (its aria-label names the change): disabled for a read-only account. */
export function WriteActionIcon({ disabled, 'aria-describedby': describedBy, ...props }: WriteActionIconProps) {
  const guard = useWriteGuard();
  return (
    <ActionIcon
      {...props}
      disabled={disabled || guard.disabled}
      aria-describedby={guard['aria-describedby'] ?? describedBy}
    />
  );
}

/**
 * A form or a block of editing controls: for a read-only account a disabled fieldset (no border, no padding), so
 * every field and button inside is disabled by the browser and the form cannot be submitted. For an
 * administrator the children as they are. Put read-only actions (download, search) outside it.
 */
export function WriteFieldset({ children }: { children: ReactNode }) {
  const guard = useWriteGuard();
  if (!guard.disabled) return children;
  return (
    <Fieldset variant="unstyled" disabled aria-describedby={READ_ONLY_HINT_ID} p={0} m={0} style={{ minWidth: 0 }}>
      {children}
    </Fieldset>
  );
}
