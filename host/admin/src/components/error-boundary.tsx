import { Component, type ReactNode } from 'react';

/** Shows a page's rendering failure in place of the page, so the menu keeps working. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | undefined }> {
  override state: { error: Error | undefined } = { error: undefined };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="error">
        <h1>This page failed</h1>
        <p>{this.state.error.message}</p>
      </div>
    );
  }
}
