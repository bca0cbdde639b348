import { COPY_POPOVER_MS } from '@centralino/contract';
import { ActionIcon, Popover, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Puts text on the clipboard; the older way (a selected textarea) when the Clipboard API is not there. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** Copy-to-clipboard button whose 'Copied' popover closes after COPY_POPOVER_MS (spec §9: 800 ms). */
export function CopyUrlButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_POPOVER_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Popover opened={copied} position="top" withArrow shadow="sm">
      <Popover.Target>
        <ActionIcon
          variant="default"
          aria-label={label}
          onClick={async () => {
            await copyText(text);
            setCopied(true);
          }}
        >
          <IconCopy size={16} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" role="status">
          {t('apps.copied')}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}
