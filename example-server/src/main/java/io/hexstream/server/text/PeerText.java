package io.hexstream.server.text;

/**
 * Text a peer sent (a request target, a header value, a JWT header's {@code alg}, a server's error message), made safe
 * to log, to put in a one-line reason or to print to a terminal: printable ASCII only, on one line, bounded in length.
 * Each character outside {@code 0x20..0x7E} becomes a visible escape ({@code \n}, {@code \r}, {@code \t}, {@code \x1b}
 * for any other character up to {@code 0xff}, a backslash, {@code u} and four hex digits for any other UTF-16 unit),
 * and past {@code maxChars} characters of output the rest is replaced by a marker saying how many characters were cut,
 * e.g. {@code ...(1234 more chars)}. A backslash stays as it is, so escaped text is left unchanged by escaping it again
 * (up to the bound) and the escape can be applied both where a field is read and where a line is written. Stateless.
 */
public final class PeerText {
    /** The default bound, characters of output before the marker: enough for a path, a header or a reason. */
    public static final int MAX_CHARS = 200;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PeerText() {}

    /** {@code text} escaped and bounded to {@link #MAX_CHARS}; {@code "null"} for {@code null}. */
    public static String escape(CharSequence text) {
        return escape(text, MAX_CHARS);
    }

    /**
     * {@code text} escaped, its output bounded to {@code maxChars} characters and the marker.
     *
     * @param maxChars at least 1
     */
    public static String escape(CharSequence text, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars " + maxChars + " < 1");
        }
        if (text == null) {
            return "null";
        }
        int length = text.length();
        StringBuilder out = null;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean plain = c >= 0x20 && c < 0x7F;
            if (out == null) {
                if (plain && i < maxChars) {
                    continue;
                }
                out = new StringBuilder(Math.min(length, maxChars) + 24).append(text, 0, i);
            }
            int before = out.length();
            if (plain) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x100) {
                out.append("\\x").append(HEX[c >>> 4]).append(HEX[c & 0xF]);
            } else {
                out.append("\\u")
                        .append(HEX[c >>> 12])
                        .append(HEX[(c >>> 8) & 0xF])
                        .append(HEX[(c >>> 4) & 0xF])
                        .append(HEX[c & 0xF]);
            }
            if (out.length() > maxChars) {
                out.setLength(before);
                return out.append("...(")
                        .append(length - i)
                        .append(" more chars)")
                        .toString();
            }
        }
        return out == null ? text.toString() : out.toString();
    }
}
