package dev.spanprofile.sample;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.stereotype.Service;

/** A report built in two traced steps, each its own child span with its own hot method. */
@Service
class ReportService {

	private final ObservationRegistry observations;

	ReportService(ObservationRegistry observations) {
		this.observations = observations;
	}

	String build(String reportId) {
		long rows = Observation.createNotStarted("report.query", this.observations)
			.observe(() -> queryRows(reportId));
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
