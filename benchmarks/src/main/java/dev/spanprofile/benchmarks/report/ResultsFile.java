package dev.spanprofile.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The results files under benchmarks/results/: comma-separated, one {@link Figure} a row
 * under the header {@link Figure#HEADER}, fields quoted where they hold a comma, a quote
 * or a line break (RFC 4180). A figure not reported is an empty field.
 */
public final class ResultsFile {

	private ResultsFile() {
	}

	public static String write(List<Figure> figures) {
		StringBuilder text = new StringBuilder(Figure.HEADER).append('\n');
		for (Figure f : figures) {
			List<String> fields = List.of(f.date().toString(), f.commit(), f.benchmark(), f.application(), f.setting(),
					f.load(), f.measure(), number(f.median()), number(f.lowerQuartile()), number(f.upperQuartile()),
					number(f.lowest()), number(f.highest()), Integer.toString(f.count()), f.unit(), f.machine(),
					f.command());
			text.append(String.join(",", fields.stream().map(ResultsFile::quoted).toList())).append('\n');
		}
		return text.toString();
	}

	public static List<Figure> read(String text) {
		List<List<String>> rows = rows(text);
		if (rows.isEmpty() || !String.join(",", rows.get(0)).equals(Figure.HEADER)) {
			throw new IllegalArgumentException("A results file starts with the header " + Figure.HEADER);
		}
		List<Figure> figures = new ArrayList<>();
		for (List<String> r : rows.subList(1, rows.size())) {
			if (r.size() != 16) {
				throw new IllegalArgumentException("A results row has 16 fields, this one " + r.size() + ": " + r);
			}
			figures.add(new Figure(LocalDate.parse(r.get(0)), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5),
					r.get(6), parse(r.get(7)), parse(r.get(8)), parse(r.get(9)), parse(r.get(10)), parse(r.get(11)),
					Integer.parseInt(r.get(12)), r.get(13), r.get(14), r.get(15)));
		}
		return figures;
	}

	/** Every figure of every {@code *.csv} file in {@code directory}. */
	public static List<Figure> readAll(Path directory) throws IOException {
		List<Figure> figures = new ArrayList<>();
		if (!Files.isDirectory(directory)) {
			return figures;
		}
		try (Stream<Path> files = Files.list(directory)) {
			for (Path file : files.filter((p) -> p.toString().endsWith(".csv")).sorted().toList()) {
				try {
					figures.addAll(read(Files.readString(file)));
				}
				catch (RuntimeException ex) {
					throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
				}
			}
		}
		return figures;
	}

	private static List<List<String>> rows(String text) {
		List<List<String>> rows = new ArrayList<>();
		List<String> row = new ArrayList<>();
		StringBuilder field = new StringBuilder();
		boolean quoted = false;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (quoted) {
				if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
					field.append('"');
					i++;
				}
				else if (c == '"') {
					quoted = false;
				}
				else {
					field.append(c);
				}
			}
			else if (c == '"') {
				quoted = true;
			}
			else if (c == ',') {
				row.add(field.toString());
				field.setLength(0);
			}
			else if (c == '\n') {
				row.add(field.toString());
				field.setLength(0);
				rows.add(row);
				row = new ArrayList<>();
			}
			else if (c != '\r') {
				field.append(c);
			}
		}
		if (field.length() > 0 || !row.isEmpty()) {
			row.add(field.toString());
			rows.add(row);
		}
		return rows;
	}

	private static String quoted(String field) {
		if (field.contains(",") || field.contains("\"") || field.contains("\n")) {
			return '"' + field.replace("\"", "\"\"") + '"';
		}
		return field;
	}

	private static String number(double value) {
		if (Double.isNaN(value)) {
			return "";
		}
		String text = String.format(Locale.ROOT, "%.4f", value);
		return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
	}

	private static double parse(String field) {
		return field.isEmpty() ? Double.NaN : Double.parseDouble(field);
	}

}
