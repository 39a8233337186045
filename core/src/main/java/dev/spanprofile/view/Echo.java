package dev.spanprofile.view;

/**
 * Input quoted back in an error message, shortened so a huge parameter is not mirrored
 * whole, and with anything but ASCII letters, digits and a few marks shown as {@code ?}:
 * a client that renders the message as HTML, or a log that records it, must never get
 * markup or line breaks from it.
 */
public final class Echo {

	private static final int MAX_ECHO = 64;

	private Echo() {
	}

	public static String of(String input) {
		StringBuilder shown = new StringBuilder(Math.min(input.length(), MAX_ECHO) + 3);
		input.codePoints().limit(MAX_ECHO).forEach((c) -> shown.append(isPlain(c) ? (char) c : '?'));
		if (input.codePointCount(0, input.length()) > MAX_ECHO) {
			shown.append("...");
		}
		return shown.toString();
	}

	private static boolean isPlain(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| " .,:;_+-=()[]".indexOf(c) >= 0;
	}

}
