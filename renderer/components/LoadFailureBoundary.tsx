import { Component, type ReactNode } from 'react';
import { errorMessage } from '../format/errorMessage';

interface Props {
  /** What failed to load, as the sentence names it ("the task's output"). */
  what: string;
  children: ReactNode;
}

/**
 * Keeps a part whose code loads apart from the page (a dialog, the terminal) from taking the whole
 * page down when its code cannot be fetched, as while drover serve is away: it says so in place
 * and offers to try again, which loads the code anew.
 */
export class LoadFailureBoundary extends Component<Props, { failure: unknown }> {
  override state = { failure: undefined as unknown };

  static getDerivedStateFromError(failure: unknown) {
    return { failure };
  }

  override render() {
    if (this.state.failure === undefined) return this.props.children;
    return (
      <div role="alert" className="load-failure">
        Could not load {this.props.what} ({errorMessage(this.state.failure)}). The page may have lost drover serve: try again once it is back.{' '}
        <button type="button" className="button button--compact" onClick={() => this.setState({ failure: undefined })}>
          Try again
        </button>
      </div>
    );
  }
}
