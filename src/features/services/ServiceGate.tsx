// A service's pages (its page, its edit form) open on the service in the address, or say why not.
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { service } from '../../../schemas/index';
import { RecordGate } from '../../components/RecordGate';
import { type Doc, useRecord } from '../../lib/data';
import { servicePaths } from './paths';

export function ServiceGate({ children }: { children: (doc: Doc<typeof service>) => ReactNode }) {
  const { id } = useParams();
  const record = useRecord(service, id);
  return (
    <RecordGate
      record={record}
      backLabelId="services.page.back"
      failedId="services.page.loadFailed"
      notFoundId="services.page.notFound"
      backTo={servicePaths.list}
    >
      {children}
    </RecordGate>
  );
}
