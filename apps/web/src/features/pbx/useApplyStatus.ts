import { PBX_APPLY_POLL_MS, type PbxApplyProblem, pbxApplyStatusSchema } from '@centralino/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../api/client.ts';

/**
 * State of the PBX configuration, polled for the whole console (header badge, failure banner, Finalise). The
 * server words the last apply's warnings in the reader's language: asked again when it changes.
 */
export function useApplyStatus() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['pbx-apply', i18n.language],
    queryFn: () => apiRequest('GET', '/api/pbx/apply', { schema: pbxApplyStatusSchema }),
    refetchInterval: PBX_APPLY_POLL_MS,
  });
}

/** Asks the server to apply the configuration again now (POST /api/pbx/apply answers at once). */
export function useRetryApply() {
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/pbx/apply', { schema: pbxApplyStatusSchema }),
    onSuccess: (status) => queryClient.setQueryData(['pbx-apply', i18n.language], status),
  });
}

/** The objects at fault, each once, in the order the check met them. */
export function objectsAtFault(
  problems: PbxApplyProblem[],
): { object: PbxApplyProblem['object']; messages: string[] }[] {
  const byKey = new Map<string, { object: PbxApplyProblem['object']; messages: string[] }>();
  for (const problem of problems) {
    const key = `${problem.object.kind}:${problem.object.id}`;
    const entry = byKey.get(key);
    if (entry) {
      if (!entry.messages.includes(problem.message)) entry.messages.push(problem.message);
    } else {
      byKey.set(key, { object: problem.object, messages: [problem.message] });
    }
  }
  return [...byKey.values()];
}
