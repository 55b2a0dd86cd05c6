package io.hexstream.server.tx;

/**
 * Why a raw transaction is refused: either it cannot be decoded ({@link #undecodable()}), or it
 * decodes and fails a check. The message names the failed check first, {@code "<check>: <detail>"}.
 */
public final class TransactionRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean undecodable;

    private TransactionRefusedException(String message, boolean undecodable) {
        super(message, null, false, false);
        this.undecodable = undecodable;
    }

    /** Input that is not a transaction at all: not RLP, not the shape of the network form. */
    public static TransactionRefusedException undecodable(String detail) {
        return new TransactionRefusedException("RLP: " + detail, true);
    }

    /** A transaction that decodes but fails {@code check}. */
    public static TransactionRefusedException failed(String check, String detail) {
        return new TransactionRefusedException(check + ": " + detail, false);
    }

    public boolean undecodable() {
        return undecodable;
    }
}
