package io.hexstream.codec.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads an HTTP/1.1 response head off a plain socket, byte by byte, leaving the body unread. */
public final class HttpHeads {
    private HttpHeads() {}

    /**
     * The head, status line to the blank line ({@code \r\n\r\n}) included, as ASCII.
     *
     * @throws IOException if the connection closes before the head ends
     */
    public static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the headers: " + head);
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(US_ASCII);
    }
}
