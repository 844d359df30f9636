import type { InboxMessage } from '../../shared/entities/inbox';
import { formatClockTime } from '../format/clockTime';
import { formatDateTime } from '../format/dateTime';
import { INBOX_KIND_LABEL, MESSAGE_STATE_LABEL } from './inboxPresentation';

interface InboxMessageItemProps {
  message: InboxMessage;
  sender: string;
  /** For a reply: the question it answers, when Drover still has it. */
  question: InboxMessage | undefined;
  /** New to the person when the inbox showed it. */
  isNew: boolean;
  now: number;
}

export function InboxMessageItem({ message, sender, question, isNew, now }: InboxMessageItemProps) {
  const kind = INBOX_KIND_LABEL[message.kind];
  return (
    <li className={`inbox-message inbox-message--${message.state}`}>
      <article aria-label={`${kind} from ${sender}`}>
        <header className="inbox-message__meta">
          <span className={`pill inbox-kind inbox-kind--${message.kind}`}>{kind}</span>
          {isNew && <span className="pill inbox-message__new">New</span>}
          <span className="inbox-message__from">from {sender}</span>
          <time className="inbox-message__time" dateTime={new Date(message.createdAt).toISOString()} title={formatDateTime(message.createdAt)}>
            {formatClockTime(message.createdAt, now)}
          </time>
          <span className={`message-state message-state--${message.state}`}>{MESSAGE_STATE_LABEL[message.state]}</span>
        </header>
        {question && <p className="inbox-message__context">Re: {question.body}</p>}
        <pre className="inbox-message__body">{message.body}</pre>
      </article>
    </li>
  );
}
