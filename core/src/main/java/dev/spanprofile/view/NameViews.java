package dev.spanprofile.view;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Wording and links the span-name views share. */
final class NameViews {

	private NameViews() {
	}

	static String describe(Duration window) {
		long seconds = window.toSeconds();
		if (seconds % 3600 == 0) {
			return (seconds / 3600) + " h";
		}
		if (seconds % 60 == 0) {
			return (seconds / 60) + " min";
		}
		return seconds + " s";
	}

	/** The query string of a name's views, from {@code names}; {@code format} and the rest are appended. */
	static String nameHref(String name, Duration window) {
		return "names?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "&window=" + window.toSeconds() + "s";
	}

}
