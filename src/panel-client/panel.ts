// Enhancements every staff page gets; each page works without them.

/** Forms marked `data-confirm` ask before they are sent (pardons, disabling accounts). */
function confirmMarkedForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm ?? 'Are you sure?')) event.preventDefault();
    });
  }
}

/** Times written as `<time datetime>` in UTC are shown in the reader's own time zone. */
function localTimes(): void {
  for (const element of document.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const at = new Date(element.dateTime);
    if (!Number.isNaN(at.getTime())) {
      element.title = element.dateTime;
      element.textContent = at.toLocaleString();
    }
  }
}

confirmMarkedForms();
localTimes();
