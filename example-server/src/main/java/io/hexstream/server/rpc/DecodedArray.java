package io.hexstream.server.rpc;

import java.util.Arrays;

/**
 * An array param of a method that reads its elements while the body is parsed ({@link ElementReader}): the elements
 * decoded, or why the array was refused. Each refusal is thrown when the method asks, so that it keeps its own order of
 * checks: the count ({@link #checkCount()}) before its other params, an element that did not decode ({@link #values})
 * last.
 */
public final class DecodedArray {
    private final Object[] values;
    private final RpcException tooMany;
    private final RpcException invalid;

    DecodedArray(Object[] values, RpcException tooMany, RpcException invalid) {
        this.values = values;
        this.tooMany = tooMany;
        this.invalid = invalid;
    }

    /**
     * @throws RpcException the reader's {@link ElementReader#tooMany()} if the array had more than its
     *     {@link ElementReader#maxElements()} elements (the rest were not read)
     */
    public void checkCount() throws RpcException {
        if (tooMany != null) {
            throw tooMany;
        }
    }

    /**
     * The decoded elements, in order, as an array of {@code type}.
     *
     * @throws RpcException the count's refusal ({@link #checkCount()}), or the first element's that did not decode
     */
    public <T> T[] values(Class<T[]> type) throws RpcException {
        checkCount();
        if (invalid != null) {
            throw invalid;
        }
        return Arrays.copyOf(values, values.length, type);
    }
}
