// Where the job screens live (product.md §2 route table: availablejobs, availablejobs/add), for
// the job screens, the area manifest and the features that link to a job.
const id = encodeURIComponent;

export const JOBS_PATH = '/availablejobs';

export const jobPaths = {
  list: JOBS_PATH,
  add: `${JOBS_PATH}/add`,
  page: (jbId: string) => `${JOBS_PATH}/${id(jbId)}`,
  edit: (jbId: string) => `${JOBS_PATH}/${id(jbId)}/edit`,
};
