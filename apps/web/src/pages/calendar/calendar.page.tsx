import { useState, type DragEvent, type FormEvent } from 'react';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router/router';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import {
  canReschedule,
  fromLocalInput,
  publicationName,
  publicationsBetween,
  publicationTime,
  reschedule,
  StatusBadge,
  toLocalInput,
  type Publication,
} from '../publications/publishing';
import { dayKey, onDay, rangeTitle, startOfDay, step, visibleRange, type CalendarView } from './calendar-range';
import '../publications/publishing.css';

const DRAG_TYPE = 'application/x-publication-id';

/** Scheduled and published posts by week or month; editors drag a scheduled post to another day (or use its Reschedule form). */
export default function CalendarPage() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const [view, setView] = useState<CalendarView>('week');
  const [anchor, setAnchor] = useState(() => startOfDay(new Date()));
  const [moveError, setMoveError] = useState<unknown>(undefined);
  const [editing, setEditing] = useState<string | null>(null);
  const { from, to, days } = visibleRange(view, anchor);
  const posts = useQuery(`${workspace.id}:${from.toISOString()}`, (signal) => publicationsBetween(api, workspace.id, from, to, signal));
  const publications = posts.data ?? [];

  const byDay = new Map<string, Publication[]>();
  for (const publication of [...publications].sort((a, b) => publicationTime(a).localeCompare(publicationTime(b)))) {
    const key = dayKey(new Date(publicationTime(publication)));
    byDay.set(key, [...(byDay.get(key) ?? []), publication]);
  }

  /** Shows the post at its new time at once; puts it back and says why when the API refuses. */
  async function move(publication: Publication, at: Date) {
    setMoveError(undefined);
    const before = publications;
    posts.setData(publications.map((item) => (item.id === publication.id ? { ...item, scheduled_at: at.toISOString() } : item)));
    try {
      const moved = await reschedule(api, publication, at);
      posts.setData(before.map((item) => (item.id === moved.id ? moved : item)));
      setEditing(null);
    } catch (error) {
      posts.setData(before);
      setMoveError(error);
    }
  }

  function drop(event: DragEvent<HTMLElement>, day: Date) {
    event.preventDefault();
    event.currentTarget.classList.remove('drop-target');
    const publication = publications.find((item) => item.id === event.dataTransfer.getData(DRAG_TYPE));
    if (!publication) return;
    const at = onDay(new Date(publication.scheduled_at), day);
    if (at.getTime() !== new Date(publication.scheduled_at).getTime()) void move(publication, at);
  }

  const title = rangeTitle(view, anchor, from);
  const today = dayKey(new Date());
  return (
    <section className="page calendar-page" aria-labelledby="page-title">
      <div className="page-heading">
        <h1 id="page-title">Calendar</h1>
        {canEdit && (
          <Link className="button primary" href="/compose">
            New post
          </Link>
        )}
      </div>
      <div className="calendar-toolbar" role="group" aria-label="Calendar range">
        <button type="button" onClick={() => setAnchor(step(view, anchor, -1))} aria-label={`Previous ${view}`}>
          ‹
        </button>
        <button type="button" onClick={() => setAnchor(startOfDay(new Date()))}>
          Today
        </button>
        <button type="button" onClick={() => setAnchor(step(view, anchor, 1))} aria-label={`Next ${view}`}>
          ›
        </button>
        <h2 className="calendar-title" aria-live="polite">
          {title}
        </h2>
        <div className="segmented" role="group" aria-label="View">
          {(['week', 'month'] as const).map((option) => (
            <button key={option} type="button" aria-pressed={view === option} onClick={() => setView(option)}>
              {option === 'week' ? 'Week' : 'Month'}
            </button>
          ))}
        </div>
      </div>
      {canEdit && <p className="hint">Drag a scheduled post to another day, or use its Reschedule button.</p>}
      <ProblemMessage error={moveError} title="The post could not be moved; it is back at its time." />
      <ProblemMessage error={posts.error} title="The calendar could not be loaded." />
      {posts.loading && <Loading label="Loading posts…" />}
      <ol className={`calendar calendar-${view}`} aria-label={title}>
        {days.map((day) => {
          const key = dayKey(day);
          const items = byDay.get(key) ?? [];
          const outside = view === 'month' && day.getMonth() !== anchor.getMonth();
          return (
            <li
              key={key}
              className={['calendar-day', outside && 'outside', items.length === 0 && 'empty-day', key === today && 'today']
                .filter(Boolean)
                .join(' ')}
              data-day={key}
              onDragOver={canEdit ? (event) => event.preventDefault() : undefined}
              onDragEnter={canEdit ? (event) => event.currentTarget.classList.add('drop-target') : undefined}
              onDragLeave={canEdit ? (event) => event.currentTarget.classList.remove('drop-target') : undefined}
              onDrop={canEdit ? (event) => drop(event, day) : undefined}
            >
              <h3 className="calendar-date">
                {day.toLocaleDateString(undefined, {
                  weekday: 'short',
                  day: 'numeric',
                  month: view === 'week' || outside ? 'short' : undefined,
                })}
              </h3>
              <ul className="calendar-posts">
                {items.map((publication) => (
                  <CalendarPost
                    key={publication.id}
                    publication={publication}
                    movable={canEdit && canReschedule(publication)}
                    editing={editing === publication.id}
                    onEdit={(open) => setEditing(open ? publication.id : null)}
                    onMove={(at) => move(publication, at)}
                  />
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
      {!posts.loading && !posts.error && publications.length === 0 && (
        <EmptyState title="Nothing scheduled or published in this range.">
          {canEdit && (
            <p>
              <Link href="/compose">Write a post</Link> and schedule it.
            </p>
          )}
        </EmptyState>
      )}
    </section>
  );
}

function CalendarPost({
  publication,
  movable,
  editing,
  onEdit,
  onMove,
}: {
  publication: Publication;
  movable: boolean;
  editing: boolean;
  onEdit(open: boolean): void;
  onMove(at: Date): Promise<void>;
}) {
  const time = new Date(publicationTime(publication));
  const [value, setValue] = useState(() => toLocalInput(time));
  const [pending, setPending] = useState(false);
  const name = publicationName(publication);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(value);
    if (!at) return;
    setPending(true);
    await onMove(at);
    setPending(false);
  };
  return (
    <li
      className={`calendar-post status-${publication.status}`}
      draggable={movable}
      onDragStart={movable ? (event) => event.dataTransfer.setData(DRAG_TYPE, publication.id) : undefined}
      data-publication-id={publication.id}
    >
      <time dateTime={time.toISOString()}>{time.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}</time>{' '}
      <Link href={`/publications/${publication.id}`}>{name}</Link> <StatusBadge status={publication.status} />
      {movable && !editing && (
        <button type="button" className="link-button" onClick={() => onEdit(true)} aria-label={`Reschedule ${name}`}>
          Reschedule
        </button>
      )}
      {movable && editing && (
        <form className="reschedule-form" onSubmit={submit}>
          <label>
            New time for {name}
            <input type="datetime-local" required value={value} onChange={(event) => setValue(event.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={pending}>
            {pending ? 'Moving…' : 'Move'}
          </button>
          <button type="button" onClick={() => onEdit(false)}>
            Cancel
          </button>
        </form>
      )}
    </li>
  );
}
