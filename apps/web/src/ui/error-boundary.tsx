import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ProblemMessage } from './problem-message';

interface Props {
  children: ReactNode;
  /** Changing it (e.g. the path) clears a caught error, so navigating away recovers. */
  resetKey?: string;
}

/** Never a blank screen: a page that throws while rendering shows what happened and a way out. */
export class ErrorBoundary extends Component<Props, { error: unknown; key?: string }> {
  override state: { error: unknown; key?: string } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; key?: string }) {
    return props.resetKey !== state.key ? { error: undefined, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The page failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <section className="page" aria-labelledby="page-error">
        <h1 id="page-error">This page ran into a problem</h1>
        <ProblemMessage error={this.state.error} />
        <p>
          <button type="button" onClick={() => this.setState({ error: undefined })}>
            Try again
          </button>{' '}
          or <a href="/">go to the start page</a>.
        </p>
      </section>
    );
  }
}
