import { EmptyState } from '../ui/states';

/** Stands in for an area until its page is built: the area's helper replaces its page file with the real page. */
export function Placeholder({ title, what }: { title: string; what: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <EmptyState title="This page is not built yet">
        <p>{what}</p>
      </EmptyState>
    </section>
  );
}
