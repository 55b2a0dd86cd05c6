package io.hexstream.client.testing;

import java.io.InputStream;
import java.util.function.IntSupplier;

/**
 * A body served a few bytes per read: each {@code read} returns at most the next size its supplier gives (at least 1),
 * as a socket delivers segments; counts the bytes served so far.
 */
public final class SplitStream extends InputStream {
    private final byte[] body;
    private final IntSupplier sizes;
    private int position;

    public SplitStream(byte[] body, IntSupplier sizes) {
        this.body = body;
        this.sizes = sizes;
    }

    /** At most {@code size} bytes per read. */
    public static SplitStream of(byte[] body, int size) {
        return new SplitStream(body, () -> size);
    }

    /** Bytes served so far. */
    public int served() {
        return position;
    }

    @Override
    public int read() {
        return position < body.length ? body[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (position == body.length) {
            return -1;
        }
        int n = Math.min(Math.min(len, Math.max(1, sizes.getAsInt())), body.length - position);
        System.arraycopy(body, position, b, off, n);
        position += n;
        return n;
    }
}
