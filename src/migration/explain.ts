import { isApiError } from '../api/errors.js';
import { errorMessage } from './errors.js';

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function withDetail(sentence: string, detail: string | undefined): string {
  return detail ? `${sentence} The service said: ${detail}` : sentence;
}

/**
 * One sentence (two at most) telling a server owner why the upload failed and what to do.
 * Built from statuses and the service's own message, never from request headers (no key).
 */
export function explainUploadError(error: unknown, fileSize: number): string {
  if (!isApiError(error)) return `The upload failed: ${errorMessage(error)}`;
  const detail = error.serviceMessage;
  switch (error.kind) {
    case 'rate_limited':
      return 'The service kept answering 429 (too many requests) to the upload; wait a few minutes and run the migration again.';
    case 'network':
      return `The service could not be reached (${error.message}); check --api-url and that the service is running.`;
    case 'timeout':
      return 'The service did not answer the upload in time; check its load and run the migration again.';
    case 'invalid_response':
      return `The service answered the upload with something the contract does not describe: ${error.message}`;
    case 'invalid_request':
      return `The upload was not sent: ${error.message}`;
    default:
      break;
  }
  switch (error.status) {
    case 400:
      return withDetail(
        'The service rejected the migration file as not valid JSON or not in the migration format (400).',
        detail,
      );
    case 401:
      return 'The service refused the API key (401): check --api-key, BAILIFF_API_KEY or the api section of config.yml.';
    case 404:
      return 'The service has no migration upload at this address (404): check --api-url and the platform segment.';
    case 413:
      return `The migration file (${megabytes(fileSize)}) is larger than the service accepts (413): split it or raise the service's --max-upload-mb.`;
    default:
      if ((error.status ?? 0) >= 500) {
        return withDetail(
          `The service failed while taking the upload (HTTP ${error.status}) and kept failing after retries.`,
          detail,
        );
      }
      return withDetail(`The service refused the upload (HTTP ${error.status}).`, detail);
  }
}
