package dev.spanprofile.render.html;

import dev.spanprofile.render.FrameCategory;

/**
 * The frame categories as a flame graph page's data carries them, at their ordinals (the
 * numbers each name's category is given by): id, label, colour family and where the page
 * lists them. The page's script knows no category by name or position, so a category
 * added, renamed or reordered here needs no change to the script; the switch over the
 * enum makes a new category fail to compile until it has a colour.
 */
final class PageCategories {

	private PageCategories() {
	}

	/**
	 * Writes the {@code frameCategories} entry: one object per category, in ordinal
	 * order.
	 */
	static void writeJson(JsonText json) {
		json.key("frameCategories").raw('[');
		for (FrameCategory category : FrameCategory.values()) {
			if (category.ordinal() > 0) {
				json.raw(',');
			}
			Colour colour = colour(category);
			json.raw('{').key("id").string(category.id());
			json.raw(',').key("label").string(category.label());
			json.raw(',').key("colour").raw('{').key("hue").number(colour.hue());
			json.raw(',').key("spread").number(colour.spread());
			json.raw(',').key("saturation").number(colour.saturation());
			json.raw(',').key("lightness").number(colour.lightness()).raw('}');
			// Synthetic nodes (the root, folded small frames) need no legend entry; spans
			// are not functions, so they stay out of the self-time table.
			json.raw(',').key("legend").bool(category != FrameCategory.OTHER);
			json.raw(',').key("table").bool(category != FrameCategory.SPAN);
			json.raw('}');
		}
		json.raw(']');
	}

	/**
	 * A category's family of colours: the page draws a few shades around {@code hue}
	 * (spread over {@code spread} degrees) so that neighbouring frames of one category
	 * stay apart. Warm for the application's code, the reader's first question; green for
	 * libraries, blue for the JDK.
	 */
	static Colour colour(FrameCategory category) {
		return switch (category) {
			case APPLICATION -> new Colour(22, 14, 86, 63);
			case FRAMEWORK -> new Colour(108, 26, 42, 62);
			case JDK -> new Colour(197, 16, 52, 66);
			case NATIVE -> new Colour(5, 8, 50, 64);
			case KERNEL -> new Colour(33, 8, 54, 64);
			case WAIT -> new Colour(328, 10, 58, 70);
			case SPAN -> new Colour(268, 12, 52, 76);
			case OTHER -> new Colour(220, 0, 8, 82);
		};
	}

	/** HSL: hue and its spread in degrees, saturation and lightness in percent. */
	record Colour(int hue, int spread, int saturation, int lightness) {
	}

}
