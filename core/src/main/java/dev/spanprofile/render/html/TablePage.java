package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page with one table, rendered on the server with no script: the span-name list, the
 * spans behind a frame. Cells hold text, links, a small inline SVG picture and a second,
 * muted line. Every text is escaped here, and pictures are drawn here.
 */
public final class TablePage {

	private static final HtmlTemplate TEMPLATE = HtmlTemplate.load("table.html");

	private final PageHeader header;

	private final List<Cell> head = new ArrayList<>();

	private final List<List<Cell>> rows = new ArrayList<>();

	private TablePage(String title) {
		this.header = new PageHeader(title);
	}

	public static TablePage titled(String title) {
		return new TablePage(title);
	}

	public TablePage fact(String label, String value) {
		this.header.fact(label, value);
		return this;
	}

	public TablePage note(String note) {
		this.header.note(note);
		return this;
	}

	public TablePage link(String label, String href) {
		this.header.link(label, href);
		return this;
	}

	public TablePage indexHref(String indexHref) {
		this.header.indexHref(indexHref);
		return this;
	}

	public TablePage columns(Cell... head) {
		this.head.addAll(List.of(head));
		return this;
	}

	public TablePage row(List<Cell> cells) {
		this.rows.add(cells);
		return this;
	}

	public String render() {
		Map<String, String> values = new HashMap<>();
		values.put("policy", HtmlEscaper.escape(PageAssets.META_POLICY));
		values.put("style", PageAssets.STYLE);
		this.header.putInto(values);
		StringBuilder head = new StringBuilder();
		for (Cell cell : this.head) {
			head.append("<th scope=\"col\"")
				.append(cell.classAttribute())
				.append('>')
				.append(HtmlEscaper.escape(cell.text))
				.append("</th>");
		}
		values.put("head", head.toString());
		StringBuilder rows = new StringBuilder();
		for (List<Cell> row : this.rows) {
			rows.append("<tr>");
			for (Cell cell : row) {
				rows.append("<td").append(cell.classAttribute()).append('>');
				for (int i = 0; i < cell.links.size(); i++) {
					PageHeader.Link link = cell.links.get(i);
					rows.append((i > 0) ? " " : "")
						.append("<a href=\"")
						.append(HtmlEscaper.escape(link.href()))
						.append("\">")
						.append(HtmlEscaper.escape(link.label()))
						.append("</a>");
				}
				rows.append(HtmlEscaper.escape(cell.text));
				if (cell.picture != null) {
					rows.append(cell.picture);
				}
				if (cell.sub != null) {
					rows.append("<div class=\"sub\">").append(HtmlEscaper.escape(cell.sub)).append("</div>");
				}
				rows.append("</td>");
			}
			rows.append("</tr>");
		}
		values.put("rows", rows.toString());
		return TEMPLATE.render(values);
	}

	/**
	 * One table cell: text, optionally preceded by links, followed by a picture and a
	 * second line.
	 */
	public static final class Cell {

		private final String text;

		private final boolean numeric;

		private final List<PageHeader.Link> links = new ArrayList<>();

		/** Inline SVG drawn by this package's charts, never from a caller's markup. */
		private String picture;

		private String sub;

		private String cssClass;

		private Cell(String text, boolean numeric) {
			this.text = text;
			this.numeric = numeric;
		}

		public static Cell text(String text) {
			return new Cell(text, false);
		}

		public static Cell number(String text) {
			return new Cell(text, true);
		}

		/** A cell holding only links. */
		public static Cell links() {
			return new Cell("", false);
		}

		/**
		 * A cell holding small bars of one value per time bucket (negative: none in that
		 * bucket), described by {@code label}.
		 */
		public static Cell sparkline(double[] values, String label) {
			Cell cell = new Cell("", false);
			cell.picture = Sparkline.svg(values, label);
			return cell;
		}

		/**
		 * {@code text} (the figure to read first) followed by a bar of the latency
		 * figures, in milliseconds, on a log scale from {@code low} to {@code high} that
		 * every row of the table shares; {@code label} says the figures in words.
		 */
		public static Cell latency(String text, double p50, double p90, double p99, double max, double low, double high,
				String label) {
			Cell cell = new Cell(text, false);
			cell.picture = LatencyRange.svg(p50, p90, p99, max, low, high, label);
			return cell;
		}

		/**
		 * A bar of shares of a whole by category ({@code shares}: category, percent),
		 * then {@code text} below it.
		 */
		public static Cell shares(List<Map.Entry<String, Double>> shares, String text, String label) {
			Cell cell = new Cell("", false);
			cell.picture = ShareBar.svg(
					shares.stream().map((share) -> new ShareBar.Share(share.getKey(), share.getValue())).toList(),
					label);
			cell.sub = text;
			return cell;
		}

		/**
		 * {@code text} followed by a bar from {@code from} to {@code to}, fractions of a
		 * time axis every row of the table shares (a timeline); {@code label} says the
		 * times in words.
		 */
		public static Cell bar(String text, double from, double to, String label) {
			Cell cell = new Cell(text, false);
			cell.picture = TimeBar.svg(from, to, label);
			return cell;
		}

		/** A second, muted line below the cell's content. */
		public Cell sub(String text) {
			this.sub = text;
			return this;
		}

		/**
		 * A class for the cell's column, for its width and layout in the style sheet
		 * ({@code [a-z-]} only).
		 */
		public Cell styled(String cssClass) {
			if (!cssClass.matches("[a-z-]+")) {
				throw new IllegalArgumentException("Not a plain class name: " + cssClass);
			}
			this.cssClass = cssClass;
			return this;
		}

		private String classAttribute() {
			String classes = ((this.numeric ? "num " : "") + ((this.cssClass != null) ? this.cssClass : "")).trim();
			return classes.isEmpty() ? "" : " class=\"" + classes + "\"";
		}

		public Cell link(String label, String href) {
			this.links.add(new PageHeader.Link(label, href));
			return this;
		}

	}

}
