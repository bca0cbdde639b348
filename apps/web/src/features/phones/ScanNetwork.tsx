import {
  canonicalMac,
  hostNetworkListSchema,
  prefixOfNetmask,
  type ScannedDevice,
  scannedDeviceListSchema,
  scanStartedSchema,
  taskSchema,
  vendorOfMac,
} from '@centralino/contract';
import { Alert, Button, Group, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { errorText } from './phonesApi.ts';

export const scanApi = {
  networks: () => apiRequest('GET', '/api/configuration/networks', { schema: hostNetworkListSchema }),
  start: (network: string) => apiRequest('POST', '/api/devices/scan', { body: { network }, schema: scanStartedSchema }),
  task: (id: string) => apiRequest('GET', `/api/tasks/${id}`, { schema: taskSchema }),
  stop: (id: string) => apiRequest('DELETE', `/api/devices/scan/${id}`, { schema: z.unknown() }),
  phones: (hash: string) => apiRequest('GET', `/api/devices/phones/list/${hash}`, { schema: scannedDeviceListSchema }),
};

const POLL_MS = 1000;

/**
 * Phones of a scan worth adding (spec §3.1 console flow): a vendor the provisioning map knows and not in
 * the inventory yet, as dash-form MACs; the model the scan told, when it did.
 */
export function phonesToAdd(
  found: readonly ScannedDevice[],
  inventory: ReadonlySet<string>,
): { input: string; model?: string }[] {
  const out: { input: string; model?: string }[] = [];
  const seen = new Set<string>();
  for (const device of found) {
    const mac = canonicalMac(device.mac);
    if (!mac || !vendorOfMac(mac) || inventory.has(mac) || seen.has(mac)) continue;
    seen.add(mac);
    out.push(device.model ? { input: mac, model: device.model } : { input: mac });
  }
  return out;
}

type Outcome =
  | { kind: 'found'; count: number }
  | { kind: 'none' }
  | { kind: 'scanError'; detail: string }
  | { kind: 'resultsError'; detail: string };

/** 'Scan a network': choose one of the server's networks and a netmask, scan, and fill the pending list. */
export function ScanNetwork({
  inventory,
  onFound,
  onScanned,
}: {
  inventory: ReadonlySet<string>;
  /** Replaces the pending list with the phones found. */
  onFound: (phones: { input: string; model?: string }[]) => void;
  /** Every phone the scan saw, with its address (the old-mode device screen shows them all). */
  onScanned?: (devices: ScannedDevice[]) => void;
}) {
  const { t } = useTranslation();
  const networks = useQuery({ queryKey: ['host-networks'], queryFn: scanApi.networks, retry: false });
  const [ip, setIp] = useState<string | null>(null);
  const [netmask, setNetmask] = useState('');
  const [errors, setErrors] = useState<{ network?: string; netmask?: string }>({});
  const [running, setRunning] = useState(false);
  const taskRef = useRef<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Bumped on stop and unmount, so that a poll loop of an older scan ends quietly.
  const generation = useRef(0);

  // Leaving the method (or the modal) stops the scan too: nobody would read its results.
  useEffect(
    () => () => {
      generation.current++;
      if (taskRef.current) void scanApi.stop(taskRef.current).catch(() => {});
    },
    [],
  );

  const choose = (value: string | null) => {
    setIp(value);
    const chosen = networks.data?.find((n) => n.ip === value);
    if (chosen) setNetmask(chosen.netmask);
    setErrors({});
  };

  const scan = async () => {
    const prefix = prefixOfNetmask(netmask);
    if (!ip) {
      setErrors({ network: t('phones.scan.chooseNetwork') });
      return;
    }
    if (prefix === undefined) {
      setErrors({ netmask: t('phones.scan.invalidNetmask') });
      return;
    }
    setErrors({});
    setOutcome(null);
    setProgress(0);
    setRunning(true);
    const mine = ++generation.current;
    try {
      await run(`${ip}/${prefix}`, mine);
    } finally {
      if (generation.current === mine) {
        setRunning(false);
        taskRef.current = null;
      }
    }
  };

  const run = async (network: string, mine: number) => {
    let started: { result: string; hash: string };
    try {
      started = await scanApi.start(network);
    } catch (error) {
      setOutcome({ kind: 'scanError', detail: errorText(error) });
      return;
    }
    taskRef.current = started.result;
    // Stopped while the scan was starting.
    if (generation.current !== mine) {
      void scanApi.stop(started.result).catch(() => {});
      return;
    }
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (generation.current !== mine) return;
        const task = await scanApi.task(started.result);
        if (generation.current !== mine) return;
        if (task.progress < 0) throw new Error(task.error ?? t('phones.scan.error'));
        setProgress(task.progress);
        if (task.progress >= 100) break;
      }
    } catch (error) {
      if (generation.current === mine) setOutcome({ kind: 'scanError', detail: errorText(error) });
      return;
    }
    try {
      const scanned = await scanApi.phones(started.hash);
      const phones = phonesToAdd(scanned, inventory);
      if (generation.current !== mine) return;
      onScanned?.(scanned);
      if (phones.length === 0) {
        setOutcome({ kind: 'none' });
        return;
      }
      onFound(phones);
      setOutcome({ kind: 'found', count: phones.length });
    } catch (error) {
      if (generation.current === mine) setOutcome({ kind: 'resultsError', detail: errorText(error) });
    }
  };

  const stop = () => {
    generation.current++;
    if (taskRef.current) void scanApi.stop(taskRef.current).catch(() => {});
    taskRef.current = null;
    setRunning(false);
    setProgress(0);
  };

  const scanning = running;

  return (
    <Stack gap="xs" data-testid="scan-network">
      <Text size="sm" c="dimmed">
        {t('phones.scan.hint')}
      </Text>
      {networks.isError && (
        <Alert color="red" title={t('phones.scan.networksError')}>
          {errorText(networks.error)}
        </Alert>
      )}
      <Group align="start" gap="sm">
        <Select
          label={t('phones.scan.network')}
          placeholder={t('phones.scan.networkPlaceholder')}
          data={(networks.data ?? []).map((n) => ({
            value: n.ip,
            label: `${n.ip} (${n.network}/${n.netmask})`,
          }))}
          value={ip}
          onChange={choose}
          error={errors.network}
          disabled={scanning}
          style={{ flex: 1 }}
        />
        <TextInput
          label={t('phones.scan.netmask')}
          placeholder="255.255.255.0"
          value={netmask}
          onChange={(e) => {
            setNetmask(e.currentTarget.value);
            setErrors({});
          }}
          error={errors.netmask}
          disabled={scanning}
          w={180}
        />
      </Group>
      <Group justify="flex-end">
        {scanning ? (
          <Button variant="default" color="red" onClick={stop}>
            {t('phones.scan.stop')}
          </Button>
        ) : (
          <WriteButton variant="default" onClick={() => void scan()}>
            {t('phones.scan.start')}
          </WriteButton>
        )}
      </Group>
      {scanning && (
        <Stack gap={4}>
          <Text size="sm">{t('phones.scan.progress', { progress })}</Text>
          <Progress value={progress} animated aria-label={t('phones.scan.progress', { progress })} />
        </Stack>
      )}
      {outcome?.kind === 'none' && (
        <Alert color="yellow" role="status">
          {t('phones.scan.noPhones')}
        </Alert>
      )}
      {outcome?.kind === 'found' && (
        <Alert color="teal" role="status">
          {t('phones.scan.found', { count: outcome.count })}
        </Alert>
      )}
      {outcome?.kind === 'scanError' && (
        <Alert color="red" title={t('phones.scan.error')}>
          {outcome.detail}
        </Alert>
      )}
      {outcome?.kind === 'resultsError' && (
        <Alert color="red" title={t('phones.scan.resultsError')}>
          {outcome.detail}
        </Alert>
      )}
    </Stack>
  );
}
