package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page with one table, rendered on the server with no script: the span-name list, the
 * spans behind a frame. Every text is escaped here.
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
				.append(cell.numeric ? " class=\"num\"" : "")
				.append('>')
				.append(HtmlEscaper.escape(cell.text))
				.append("</th>");
		}
		values.put("head", head.toString());
		StringBuilder rows = new StringBuilder();
		for (List<Cell> row : this.rows) {
			rows.append("<tr>");
			for (Cell cell : row) {
				rows.append("<td").append(cell.numeric ? " class=\"num\"" : "").append('>');
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
				if (cell.sparkline != null) {
					rows.append(Sparkline.svg(cell.sparkline, cell.sparklineLabel));
				}
				rows.append("</td>");
			}
			rows.append("</tr>");
		}
		values.put("rows", rows.toString());
		return TEMPLATE.render(values);
	}

	/** One table cell: text, optionally preceded by links. */
	public static final class Cell {

		private final String text;

		private final boolean numeric;

		private final List<PageHeader.Link> links = new ArrayList<>();

		private double[] sparkline;

		private String sparklineLabel;

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
		 * A cell holding a small line of one value per time bucket (negative: none in
		 * that bucket), described by {@code label}.
		 */
		public static Cell sparkline(double[] values, String label) {
			Cell cell = new Cell("", false);
			cell.sparkline = values;
			cell.sparklineLabel = label;
			return cell;
		}

		public Cell link(String label, String href) {
			this.links.add(new PageHeader.Link(label, href));
			return this;
		}

	}

}
