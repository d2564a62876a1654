import { Placeholder } from '../placeholder';

export default function AnalyticsPage() {
  return <Placeholder title="Analytics" what="Followers, engagement, top posts and growth recommendations." />;
}
