package dev.spanprofile.sampling;

/** A sampling engine cannot run on this platform or in this configuration. */
public class SamplerUnavailableException extends Exception {

	public SamplerUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

	public SamplerUnavailableException(String message) {
		super(message);
	}

}
