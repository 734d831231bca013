import { lazy, Suspense } from 'react';
import { createBrowserRouter, createRoutesFromElements, Navigate, Outlet, Route } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RequireSession } from './auth/require-session.tsx';
import { SessionProvider } from './auth/session-context.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { MemoryFormPage } from './pages/memory/memory-form-page.tsx';
import { MemoryListPage } from './pages/memory/memory-list-page.tsx';
import { SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { ChannelsPage } from './pages/channels/channels-page.tsx';
import { ChannelPackagesPage } from './pages/channels/packages/channel-packages-page.tsx';
import { SourcesPage } from './pages/sources/sources-page.tsx';
import { WorkflowsPage } from './pages/workflows/workflows-page.tsx';
import { WorkflowEditorPage } from './pages/workflows/workflow-editor-page.tsx';
import { RunsPage } from './pages/runs/runs-page.tsx';
import { RunDetailPage } from './pages/runs/run-detail-page.tsx';
import { DeadLettersPage } from './pages/runs/dead-letters-page.tsx';
import { SkippedEventsPage } from './pages/runs/skipped-events-page.tsx';
import { SubscribersPage } from './pages/subscribers/subscribers-page.tsx';
import { SubscriberPage } from './pages/subscribers/subscriber-page.tsx';

// The settings form (rjsf + ajv) is most of the bundle: loaded when a source is opened.
const SourceFormPage = lazy(() => import('./pages/sources/source-form-page.tsx').then((module) => ({ default: module.SourceFormPage })));

/**
 * The panel's routes: the sign-in page, and every other page behind a session. A data router
 * (not `<BrowserRouter>`), so a page can hold navigation back while it has unsaved edits
 * (`useBlocker`, see use-unsaved-changes.ts).
 */
const router = createBrowserRouter(
  createRoutesFromElements(
    <Route
      element={
        <SessionProvider>
          <Outlet />
        </SessionProvider>
      }
    >
      <Route path="/sign-in" element={<SignInPage />} />
      <Route
        element={
          <RequireSession>
            <AppLayout />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/workflows" replace />} />
        <Route path="workflows/memory" element={<MemoryListPage />} />
        <Route path="workflows/memory/:id" element={<MemoryFormPage />} />
        <Route path="workflows" element={<WorkflowsPage />} />
        <Route path="workflows/:id" element={<WorkflowEditorPage />} />
        <Route path="channels" element={<ChannelsPage />} />
        <Route path="channels/packages" element={<ChannelPackagesPage />} />
        <Route path="sources" element={<SourcesPage />} />
        <Route
          path="sources/:id"
          element={
            <Suspense fallback={<p className="loading">Loading…</p>}>
              <SourceFormPage />
            </Suspense>
          }
        />
        <Route path="runs" element={<RunsPage />} />
        <Route path="runs/:id" element={<RunDetailPage />} />
        <Route path="subscribers" element={<SubscribersPage />} />
        <Route path="subscribers/:id" element={<SubscriberPage />} />
        <Route path="dead-letters" element={<DeadLettersPage />} />
        <Route path="skipped-events/:sourceId?" element={<SkippedEventsPage />} />
        <Route path="*" element={<p className="empty">No page here.</p>} />
      </Route>
    </Route>,
  ),
);

export function App() {
  return <RouterProvider router={router} />;
}
