/** A multipart/form-data body with one file, as a browser's upload form sends it: its body and headers. */
export function multipart(file: Buffer, filename: string, contentType: string, field = "file") {
  const boundary = "----voltio-test-boundary";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
