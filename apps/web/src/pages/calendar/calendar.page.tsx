import { Placeholder } from '../placeholder';

export default function CalendarPage() {
  return <Placeholder title="Calendar" what="Scheduled and published posts by week and month, with drag to reschedule." />;
}
