import { createBrowserRouter, Navigate } from 'react-router';
import { AdminPage } from '../features/admin/AdminPage.tsx';
import { LanguagesPage } from '../features/languages/LanguagesPage.tsx';
import { LoginPage } from '../features/login/LoginPage.tsx';
import { FinalPage } from '../features/wizard/FinalPage.tsx';
import { HomeOrWizard } from '../features/wizard/HomeOrWizard.tsx';
import { AppLayout } from './AppLayout.tsx';

/** Keep in step with ROUTED_PATHS (paths.ts); a test checks that they agree. */
export const routes = [
  { path: '/login', element: <LoginPage /> },
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomeOrWizard /> },
      { path: '/final', element: <FinalPage /> },
      { path: '/admin', element: <AdminPage /> },
      { path: '/admin/languages', element: <LanguagesPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
