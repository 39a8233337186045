package dev.spanprofile.render.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A page skeleton with {@code {{name}}} slots, filled in one pass: a value is never
 * scanned for further slots, so text that happens to contain {@code {{...}}} stays as it
 * is. Values are inserted as given; callers escape them.
 */
final class HtmlTemplate {

	private final List<String> literals = new ArrayList<>();

	private final List<String> slots = new ArrayList<>();

	private HtmlTemplate(String text) {
		int position = 0;
		while (true) {
			int open = text.indexOf("{{", position);
			if (open < 0) {
				break;
			}
			int close = text.indexOf("}}", open + 2);
			if (close < 0) {
				throw new IllegalStateException("Unclosed slot at " + open);
			}
			this.literals.add(text.substring(position, open));
			this.slots.add(text.substring(open + 2, close).trim());
			position = close + 2;
		}
		this.literals.add(text.substring(position));
	}

	static HtmlTemplate load(String resource) {
		return new HtmlTemplate(resourceText(resource));
	}

	static String resourceText(String resource) {
		try (InputStream in = HtmlTemplate.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Missing resource " + resource);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	String render(Map<String, String> values) {
		StringBuilder out = new StringBuilder(8192);
		for (int i = 0; i < this.slots.size(); i++) {
			out.append(this.literals.get(i));
			String value = values.get(this.slots.get(i));
			if (value == null) {
				throw new IllegalArgumentException("No value for slot " + this.slots.get(i));
			}
			out.append(value);
		}
		out.append(this.literals.get(this.literals.size() - 1));
		return out.toString();
	}

}
