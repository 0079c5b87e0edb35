/**
 * A drawn signature: a canvas that follows a finger, a pen or a mouse through pointer events
 * (one API for all three), with a Clear button. It reports the drawing as a PNG (base64, no
 * `data:` prefix) once a stroke ends, or null when cleared. Drawing needs a pointer: the keyboard
 * alternative is the typed name, offered next to it.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useI18n } from './i18n.tsx';

interface Props {
  onChange: (pngBase64: string | null) => void;
  labelledBy: string;
}

/** Drawing height in CSS pixels (the stylesheet's .signature-canvas); the bitmap is scaled by the
 * device's pixel ratio for a sharp line. */
const HEIGHT = 160;

export function SignaturePad({ onChange, labelledBy }: Props) {
  const { t } = useI18n();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);

  // the bitmap is sized from the canvas's laid-out width once (a phone or a desktop column); the
  // pointer's position is scaled to the bitmap, so a later change of the layout (a phone turned)
  // stretches the drawing without shifting where the next stroke lands
  const size = useCallback(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(c.clientWidth * ratio);
    c.height = Math.round(HEIGHT * ratio);
    const g = c.getContext('2d');
    if (!g) return;
    g.lineWidth = 2.5 * ratio;
    g.lineCap = 'round';
    g.lineJoin = 'round';
    g.strokeStyle = '#111827';
  }, []);

  useEffect(() => {
    size();
  }, [size]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return {
      x: ((e.clientX - r.left) * c.width) / (r.width || 1),
      y: ((e.clientY - r.top) * c.height) / (r.height || 1),
    };
  };

  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const g = e.currentTarget.getContext('2d');
    if (!g) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    const p = point(e);
    g.beginPath();
    g.moveTo(p.x, p.y);
    // a dot for a tap
    g.lineTo(p.x + 0.5, p.y + 0.5);
    g.stroke();
  };

  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const g = e.currentTarget.getContext('2d');
    if (!g) return;
    const p = point(e);
    g.lineTo(p.x, p.y);
    g.stroke();
  };

  const up = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current = false;
    onChange(e.currentTarget.toDataURL('image/png').replace(/^data:image\/png;base64,/, ''));
  };

  const clear = () => {
    size();
    onChange(null);
  };

  return (
    <div className="signature-pad">
      <canvas
        ref={canvas}
        className="signature-canvas"
        role="img"
        aria-labelledby={labelledBy}
        data-testid="signature-canvas"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <div className="buttons">
        <button type="button" className="link" onClick={clear}>
          {t('signatureClear')}
        </button>
      </div>
    </div>
  );
}
