import { ApiRequestError, GENERIC_ERROR } from './api';
import { showError } from './notify';

/**
 * Uploads a file as the request body (text/csv), the server reading it as it arrives; `onProgress`
 * gets the share sent (0 to 1). XMLHttpRequest, as fetch reports no upload progress.
 */
export function uploadFile<T>(url: string, file: Blob, onProgress: (sent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else {
        const error = new ApiRequestError(
          xhr.status,
          typeof body.message === 'string' ? body.message : GENERIC_ERROR,
          (body.errors as Record<string, string>) ?? {},
        );
        showError(error.message);
        reject(error);
      }
    };
    xhr.onerror = () => {
      const error = new ApiRequestError(0, 'The upload was cut off');
      showError(error.message);
      reject(error);
    };
    xhr.send(file);
  });
}
