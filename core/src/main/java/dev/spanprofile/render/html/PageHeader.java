package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What every page says above its content: its title, labelled facts, notes, links, and
 * where the span list is. The pages fill one each and hand it to their template, so a
 * fact or a link reads the same on every page; every text is escaped here.
 */
final class PageHeader {

	private String title;

	private final List<Fact> facts = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private final List<Link> links = new ArrayList<>();

	private String indexHref = "../spanprofile";

	PageHeader(String title) {
		this.title = title;
	}

	String title() {
		return this.title;
	}

	void title(String title) {
		this.title = title;
	}

	void fact(String label, String value) {
		this.facts.add(new Fact(label, value));
	}

	void note(String note) {
		this.notes.add(note);
	}

	void link(String label, String href) {
		this.links.add(new Link(label, href));
	}

	void indexHref(String indexHref) {
		this.indexHref = indexHref;
	}

	/**
	 * The template's {@code title}, {@code indexHref}, {@code facts}, {@code notes} and
	 * {@code links}.
	 */
	void putInto(Map<String, String> values) {
		values.put("title", HtmlEscaper.escape(this.title));
		values.put("indexHref", HtmlEscaper.escape(this.indexHref));
		values.put("facts", Fragments.facts(this.facts));
		values.put("notes", Fragments.notes(this.notes));
		values.put("links", Fragments.links("links", this.links));
	}

	/** One labelled value: a trace id, a duration, a count of samples. */
	record Fact(String label, String value) {
	}

	/** A link, {@code href} relative to the page. */
	record Link(String label, String href) {
	}

}
