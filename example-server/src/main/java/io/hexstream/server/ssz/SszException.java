package io.hexstream.server.ssz;

/** A blob request refused once read: the {@link Problem} it is answered with. */
public final class SszException extends Exception {
    private final Problem problem;

    public SszException(Problem problem) {
        super(problem.detail() != null ? problem.detail() : problem.type(), null, false, false);
        this.problem = problem;
    }

    /** {@code 400 ssz-decode-error} or {@code 413 request-too-large}. */
    public Problem problem() {
        return problem;
    }
}
