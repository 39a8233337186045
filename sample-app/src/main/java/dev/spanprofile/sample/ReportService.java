package dev.spanprofile.sample;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.stereotype.Service;

/**
 * A report built in two traced steps, each its own child span with its own hot method;
 * and a CSV export that builds every row in memory before joining them, the kind of code
 * that shows in an allocation graph rather than a CPU one.
 */
@Service
class ReportService {

	private final ObservationRegistry observations;

	ReportService(ObservationRegistry observations) {
		this.observations = observations;
	}

	String build(String reportId) {
		long rows = Observation.createNotStarted("report.query", this.observations).observe(() -> queryRows(reportId));
		return Observation.createNotStarted("report.render", this.observations).observe(() -> render(rows));
	}

	private long queryRows(String reportId) {
		CpuWork.burn(40, ReportService::aggregateRows);
		return 100 + Math.abs(reportId.hashCode() % 100);
	}

	private String render(long rows) {
		CpuWork.burn(25, ReportService::renderTable);
		return "report with " + rows + " rows";
	}

	/** Builds the export as one CSV string; answers its length. */
	int export(String reportId, int rows) {
		return toCsv(buildExportRows(reportId, rows)).length();
	}

	static List<List<String>> buildExportRows(String reportId, int rows) {
		List<List<String>> table = new ArrayList<>();
		for (int row = 0; row < rows; row++) {
			List<String> cells = new ArrayList<>();
			cells.add(reportId);
			cells.add(Integer.toString(row));
			cells.add("sku-" + (row % 997));
			cells.add((row * 107 / 100) + "." + (row * 107 % 100));
			cells.add(Long.toHexString(31L * row + reportId.hashCode()));
			table.add(cells);
		}
		return table;
	}

	static String toCsv(List<List<String>> table) {
		StringBuilder csv = new StringBuilder();
		for (List<String> cells : table) {
			for (int i = 0; i < cells.size(); i++) {
				csv.append((i > 0) ? "," : "").append(cells.get(i));
			}
			csv.append('\n');
		}
		return csv.toString();
	}

	static long aggregateRows(long seed) {
		double acc = seed % 1000;
		for (int row = 1; row < 40_000; row++) {
			acc += Math.sqrt(row) / (acc + row);
		}
		return (long) acc + seed;
	}

	static long renderTable(long seed) {
		StringBuilder cell = new StringBuilder(64);
		long h = seed;
		for (int i = 0; i < 2_000; i++) {
			cell.setLength(0);
			cell.append(h).append('|').append(i);
			h = 31 * h + cell.toString().hashCode();
		}
		return h;
	}

}
