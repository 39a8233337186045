package dev.spanprofile.test;

import org.opentest4j.TestAbortedException;

/**
 * A profile assertion that had too few samples to decide: the test is reported as aborted
 * (skipped, with this message), neither passed nor failed, so that a budget never passes
 * on a handful of samples and a build never fails on sampling noise. The message says how
 * many samples there were and what to change.
 */
public class InconclusiveProfileException extends TestAbortedException {

	private static final long serialVersionUID = 1L;

	public InconclusiveProfileException(String message) {
		super(message);
	}

}
