package io.hexstream.server.rpc;

/**
 * How a method takes the elements of its array params while the body is parsed ({@link RpcMethod#elements()}): at most
 * {@link #maxElements()} of them, the one more refused as the parser meets it ({@link #tooMany()}, the rest of the
 * array skipped unread), each string element decoded by {@link #decode} straight from the parser's text into what the
 * method keeps, no {@code String} made. The method then finds them in a {@link DecodedArray}. Thread-safe.
 */
public interface ElementReader {
    /** The most elements an array param may have. */
    int maxElements();

    /** The refusal of an array param of more than {@link #maxElements()} elements, e.g. {@code -38004}. */
    RpcException tooMany();

    /**
     * Decodes one string element.
     *
     * @param text the parser's buffer, holding the element's unescaped text in {@code [offset, offset + length)}; valid
     *     during this call only
     * @param index the element's index in its array, for the error
     * @return what the method keeps of it (e.g. a lookup key)
     * @throws RpcException e.g. {@code -32602} naming {@code index}: the request gets it as its reply
     */
    Object decode(char[] text, int offset, int length, int index) throws RpcException;
}
