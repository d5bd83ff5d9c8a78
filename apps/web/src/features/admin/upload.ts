import { useMutation } from "@tanstack/react-query";
import type { UploadReply } from "@voltio/domain/account";
import { ApiError, refreshAccessToken } from "@/api/client";
import { tokens } from "@/api/tokens";

/**
 * POST /uploads with progress (fetch can't report an upload's progress; XMLHttpRequest can). An expired
 * access token is refreshed once and the file sent again, as apiFetch does for other calls.
 */
export function uploadImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", "/api/uploads");
      const access = tokens.access();
      if (access) request.setRequestHeader("authorization", `Bearer ${access}`);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      request.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(request.responseText);
        } catch {
          body = request.responseText;
        }
        resolve({ status: request.status, body });
      };
      request.onerror = () => reject(new Error("network"));
      const form = new FormData();
      form.append("file", file);
      request.send(form);
    });
  return (async () => {
    let reply = await send();
    const expired =
      reply.status === 403 &&
      (reply.body as { error?: { name?: string } } | undefined)?.error?.name === "TokenExpiredError";
    if (expired && (await refreshAccessToken(tokens.access()))) reply = await send();
    if (reply.status !== 201 && reply.status !== 200) throw new ApiError(reply.status, reply.body);
    return (reply.body as UploadReply).secure_url;
  })();
}

/** POST /uploads of one file at a time, several at once if need be: each mutateAsync answers for its file. */
export function useUploadImage() {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
      uploadImage(file, onProgress),
  });
}
