import { currentWizard, type ProvisioningEngine, stepPath, type WizardState } from '@centralino/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { isRouted } from '../../app/paths.ts';

/** `enabled` false waits (the frame asks before it knows whether anyone is signed in). */
export function useEngine(enabled = true) {
  return useQuery({
    queryKey: ['provisioning-engine'],
    queryFn: api.provisioningEngine,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}

export function useWizardState(enabled = true) {
  return useQuery({ queryKey: ['wizard'], queryFn: api.wizard, select: currentWizard, enabled });
}

/** Where a step lives in the console: its own screen once built, otherwise the wizard frame at /. */
export function routeOfStep(engine: ProvisioningEngine, step: number): string {
  const path = stepPath(engine, step);
  return isRouted(path) ? path : '/';
}

export function useWizardMove(engine: ProvisioningEngine) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (state: WizardState) => api.saveWizard(state),
    onSuccess: (saved) => {
      queryClient.setQueryData<WizardState[]>(['wizard'], [saved]);
      navigate(saved.status === 'false' ? '/final' : routeOfStep(engine, saved.step));
    },
  });
}
