import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, setUnauthorizedListener } from '../api/client.ts';
import { forgetCredentials, readCredentials, storeCredentials } from '../api/credentials.ts';
import { sessionApi as api } from '../api/session.ts';
import { notifyError } from '../components/notify.ts';

type AuthStatus = 'checking' | 'signedOut' | 'signedIn';

interface AuthContextValue {
  status: AuthStatus;
  user: string | undefined;
  /** The signed-in account may only look: write controls are hidden or disabled, the server refuses writes. */
  readOnly: boolean;
  /** The account may play and download call recordings (an admin, or a read-only account allowed to). */
  listenRecordings: boolean;
  /** Resolves with a challenge when the account has a second factor (then call loginCode). */
  login(username: string, password: string): Promise<{ challenge?: string }>;
  loginCode(challenge: string, code: string): Promise<void>;
  logout(): void;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [status, setStatus] = useState<AuthStatus>(() => (readCredentials() ? 'checking' : 'signedOut'));
  const [user, setUser] = useState<string | undefined>(() => readCredentials()?.user);
  const [readOnly, setReadOnly] = useState(false);
  const [listenRecordings, setListenRecordings] = useState(false);

  const signOut = useCallback(() => {
    forgetCredentials();
    queryClient.clear();
    setUser(undefined);
    setStatus('signedOut');
  }, [queryClient]);

  // Automatic login: a stored key is checked once when the app opens.
  useEffect(() => {
    if (status !== 'checking') return;
    api
      .checkLogin()
      .then((session) => {
        setReadOnly(session.role !== 'admin');
        setListenRecordings(session.listen_recordings);
        setStatus('signedIn');
      })
      .catch((error) => {
        // Only the server's refusal forgets the key. A check that never reached it (the network, a navigation
        // that cut the request short) leaves the key for the next load: the sign-in page shows meanwhile.
        if (error instanceof ApiError && error.status === 0) {
          queryClient.clear();
          setStatus('signedOut');
        } else signOut();
      });
  }, [status, signOut, queryClient]);

  useEffect(() => {
    setUnauthorizedListener(() => {
      if (readCredentials()) notifyError(t('errors.sessionExpired'));
      signOut();
    });
    return () => setUnauthorizedListener(undefined);
  }, [signOut, t]);

  const value = useMemo<AuthContextValue>(() => {
    /** Stores the key the sign-in answered and learns the account's role. */
    const finish = async (signIn: () => Promise<{ user: string; secretkey: string }>) => {
      try {
        const session = await signIn();
        storeCredentials(session);
        setUser(session.user);
        // The role comes with the key check (the sign-in answer stays { user, secretkey }).
        const info = await api.checkLogin().catch(() => undefined);
        setReadOnly(info?.role !== 'admin');
        setListenRecordings(info?.listen_recordings === true);
        setStatus('signedIn');
      } catch (error) {
        forgetCredentials();
        throw error;
      }
    };
    return {
      status,
      user,
      readOnly,
      listenRecordings,
      async login(username, password) {
        const answer = await api.login({ username, password }).catch((error) => {
          forgetCredentials();
          throw error;
        });
        if ('challenge' in answer) return { challenge: answer.challenge };
        await finish(async () => answer);
        return {};
      },
      loginCode: (challenge, code) => finish(() => api.loginCode({ challenge, code })),
      logout() {
        // The request takes the headers before the key is forgotten locally.
        void api.logout().catch(() => undefined);
        signOut();
      },
    };
  }, [status, user, readOnly, listenRecordings, signOut]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** Whether the signed-in account may play call recordings (false outside an AuthProvider: the server decides). */
export function useCanListen(): boolean {
  return useContext(AuthContext)?.listenRecordings === true;
}

/**
 * Whether the signed-in account may change things: the shared write controls (list "New" buttons, Edit, Delete)
 * hide or disable themselves with it, so older screens follow the read-only role without each checking it. Outside
 * an AuthProvider (a component rendered alone in a test) it answers true; the server refuses writes either way.
 */
export function useCanWrite(): boolean {
  return !useContext(AuthContext)?.readOnly;
}
