// Jobs list: drag and drop onto the upload form, and live progress by polling /v1/jobs.
"use strict";
(function () {
  const form = document.getElementById("upload");
  if (form) {
    const input = document.getElementById("file");
    form.addEventListener("dragover", (event) => { event.preventDefault(); form.classList.add("over"); });
    form.addEventListener("dragleave", () => form.classList.remove("over"));
    form.addEventListener("drop", (event) => {
      event.preventDefault();
      form.classList.remove("over");
      if (event.dataTransfer && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        form.submit();
      }
    });
  }
  const pending = () => document.querySelectorAll('tr.job[data-status="queued"], tr.job[data-status="running"]');
  async function poll() {
    if (!pending().length) return;
    try {
      const answer = await fetch("/v1/jobs", { credentials: "same-origin" });
      if (answer.ok) {
        const jobs = (await answer.json()).jobs;
        let finished = false;
        for (const job of jobs) {
          const row = document.querySelector(`tr.job[data-job="${job.id}"]`);
          if (!row) continue;
          if (row.dataset.status !== job.status && ["ok", "partial", "failed"].includes(job.status)) finished = true;
          row.dataset.status = job.status;
          const status = row.querySelector(".status");
          status.textContent = job.status;
          status.className = `status status-${job.status}`;
          const bar = row.querySelector("progress");
          bar.max = job.pages_total || 1;
          bar.value = job.pages_done;
          row.querySelector(".count").textContent = `${job.pages_done}/${job.pages_total ?? "?"}`;
        }
        if (finished) { window.location.reload(); return; }
      }
    } catch (error) { /* the server restarts: try again */ }
    window.setTimeout(poll, 1000);
  }
  window.setTimeout(poll, 1000);
})();
