// The keyboard shortcuts, listed from the registered actions themselves.
import { actions } from '../app/actions';

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
      <div className="overlay-box">
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {actions.map((a) => (
              <tr key={a.name}>
                <th scope="row">
                  {a.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </th>
                <td>{a.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>Tab moves between the controls; every button has a name a screen reader reads.</p>
        <button type="button" onClick={onClose} autoFocus aria-label="Close help">
          Close
        </button>
      </div>
    </div>
  );
}
