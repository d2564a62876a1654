import { Placeholder } from '../placeholder';

export default function MediaPage() {
  return <Placeholder title="Media" what="The media library with its tags." />;
}
