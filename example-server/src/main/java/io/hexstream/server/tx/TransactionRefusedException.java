package io.hexstream.server.tx;

/**
 * Why a raw transaction is refused: either it cannot be decoded ({@link #undecodable()}), or it decodes and fails a
 * check. The message names the failed check first, {@code "<check>: <detail>"}.
 */
public final class TransactionRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The check that failed, for the metrics: {@link #RLP} when undecodable. */
    public static final String RLP = "RLP";

    private final boolean undecodable;
    private final String check;

    private TransactionRefusedException(String check, String detail, boolean undecodable) {
        super(check + ": " + detail, null, false, false);
        this.undecodable = undecodable;
        this.check = check;
    }

    /** Input that is not a transaction at all: not RLP, not the shape of the network form. */
    public static TransactionRefusedException undecodable(String detail) {
        return new TransactionRefusedException(RLP, detail, true);
    }

    /** A transaction that decodes but fails {@code check}. */
    public static TransactionRefusedException failed(String check, String detail) {
        return new TransactionRefusedException(check, detail, false);
    }

    public boolean undecodable() {
        return undecodable;
    }

    /** The failed check's name, one of a few constants of the decoder and the checks (e.g. {@code signature}). */
    public String check() {
        return check;
    }
}
